import { afterAll, beforeAll } from 'vitest';
import { ensureBuilt } from './built-tole';
import { type ChatServer, type ChatServerOptions, startChatServer } from './chat-server';

/**
 * The file's chat server: started in its `beforeAll` (after making sure of the built tole, with
 * `built`), closed in its `afterAll`. Read `server` inside a test or hook. The folders a test makes
 * with agent-fixtures' `tempDirs` go when it ends, so a file keeps no list of them.
 */
export function fileChatServer(options: ChatServerOptions, { built = false } = {}): { readonly server: ChatServer } {
  let started: ChatServer | undefined;
  beforeAll(async () => {
    if (built) ensureBuilt();
    started = await startChatServer(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get server(): ChatServer {
      if (started === undefined) throw new Error("the file's chat server is read before its beforeAll ran");
      return started;
    },
  };
}
