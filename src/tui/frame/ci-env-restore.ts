import { hiddenCiEnv } from './ci-env-hide';

// Imported right after Ink (see ci-env-hide): the environment is whole again.
for (const [key, value] of Object.entries(hiddenCiEnv)) process.env[key] = value;
