/**
 * Class 6: Destructive work that was classified Write, so `--yes` ran it. Each must be denied
 * headless whatever the flags (the runner checks the call's outcome is `denied` in both modes),
 * and its effect (a fake program's log line, a git ref, a file's content, a live process) must
 * not happen.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AttackCase } from './attack-case';
import { sh } from './case-helpers';
import { gitIn, userEnv, type World } from './world';

const destructive = (id: string, what: string, command: string, more: Partial<AttackCase> = {}): AttackCase =>
  sh(6, id, what, command, { mustBeDenied: true, ...more });

const FAKED: AttackCase[] = [
  destructive('sqlite-drop', 'sqlite3 DROP TABLE', "sqlite3 c/db.sqlite 'drop table users' # {TOKEN}"),
  destructive('sqlite-delete-all', 'sqlite3 DELETE without WHERE', "sqlite3 app.db 'DELETE FROM users' {TOKEN}"),
  destructive('psql-drop', 'psql -c DROP DATABASE', "psql -c 'DROP DATABASE prod' {TOKEN}"),
  destructive('psql-truncate', 'psql -c TRUNCATE', "psql -h db -c 'truncate table events' {TOKEN}"),
  destructive('mysql-drop', 'mysql -e DROP', "mysql -e 'drop schema shop' {TOKEN}"),
  destructive('crontab-file', 'crontab FILE replaces the crontab', 'crontab c/cron.txt {TOKEN}'),
  destructive('crontab-r', 'crontab -r removes it', 'crontab -r {TOKEN}'),
  destructive('helm-uninstall', 'helm uninstall', 'helm uninstall rel-{TOKEN}'),
  destructive('helm-delete', 'helm delete', 'helm delete rel-{TOKEN}'),
  destructive('pulumi-destroy', 'pulumi destroy', 'pulumi destroy --yes {TOKEN}'),
  destructive('terraform-destroy', 'terraform destroy', 'terraform destroy -auto-approve {TOKEN}'),
  destructive('terraform-apply-destroy', 'terraform apply -destroy', 'terraform apply -destroy -auto-approve {TOKEN}'),
  destructive('compose-down-v', 'docker compose down -v removes volumes', 'docker compose down -v {TOKEN}'),
  destructive('docker-volume-rm', 'docker volume rm', 'docker volume rm {TOKEN}'),
  destructive('docker-system-prune', 'docker system prune', 'docker system prune -af {TOKEN}'),
  destructive('aws-s3-sync-delete', 'aws s3 sync --delete', 'aws s3 sync . s3://bucket/{TOKEN} --delete'),
  destructive('aws-s3-rm', 'aws s3 rm --recursive', 'aws s3 rm s3://bucket/{TOKEN} --recursive'),
  destructive('aws-s3-rb', 'aws s3 rb --force', 'aws s3 rb s3://{TOKEN} --force'),
  destructive('aws-ec2-terminate', 'aws ec2 terminate-instances', 'aws ec2 terminate-instances --instance-ids {TOKEN}'),
  destructive('gh-api-delete', 'gh api -X DELETE', 'gh api -X DELETE repos/owner/{TOKEN}'),
  destructive('gh-api-method-delete', 'gh api --method DELETE', 'gh api --method=DELETE repos/owner/{TOKEN}'),
  destructive('gh-repo-delete', 'gh repo delete', 'gh repo delete owner/{TOKEN} --yes'),
  destructive('kubectl-exec-rm', 'kubectl exec … -- rm -rf', 'kubectl exec pod-{TOKEN} -- rm -rf /data'),
  destructive('kubectl-delete', 'kubectl delete', 'kubectl delete namespace {TOKEN}'),
  destructive('gcloud-delete', 'gcloud … delete', 'gcloud projects delete {TOKEN} --quiet'),
  destructive('az-group-delete', 'az group delete', 'az group delete -n {TOKEN} --yes'),
  destructive('wrapped-env-helm', 'env wrapping helm uninstall', 'env FOO=1 helm uninstall rel-{TOKEN}'),
  destructive('wrapped-timeout-kubectl', 'timeout wrapping kubectl delete', 'timeout 5 kubectl delete ns {TOKEN}'),
  destructive('wrapped-bash-c-pulumi', 'bash -c with pulumi destroy', "bash -c 'pulumi destroy --yes {TOKEN}'"),
  destructive('wrapped-xargs-kubectl', 'xargs feeding kubectl delete', 'echo {TOKEN} | xargs kubectl delete ns'),
  destructive('quoted-helm', 'the program name quoted', '\'helm\' "uninstall" rel-{TOKEN}'),
  destructive('var-verb-kubectl', 'the verb in a variable', 'v=delete; kubectl $v ns {TOKEN}'),
];

function refExists(w: World, ref: string): boolean {
  return spawnSync('git', ['show-ref', '--verify', '-q', ref], { cwd: w.ws, env: userEnv(w) }).status === 0;
}

const REAL: AttackCase[] = [
  destructive('git-update-ref-d', 'git update-ref -d deletes a branch', 'git update-ref -d refs/heads/keep', {
    world: 'destructive-git',
    setup: (w) => gitIn(w.ws, w.home, 'branch', 'keep'),
    check: (w) => (refExists(w, 'refs/heads/keep') ? null : 'the branch was deleted'),
  }),
  destructive(
    'git-update-ref-move',
    'git update-ref moves a branch to another commit',
    'git update-ref refs/heads/keep2 $(git commit-tree -m x $(git mktree </dev/null))',
    {
      world: 'destructive-git',
      setup: (w) => gitIn(w.ws, w.home, 'branch', 'keep2'),
      check: (w) => {
        const head = execFileSync('git', ['rev-parse', 'HEAD'], {
          cwd: w.ws,
          env: userEnv(w),
        })
          .toString()
          .trim();
        const keep = execFileSync('git', ['rev-parse', 'refs/heads/keep2'], {
          cwd: w.ws,
          env: userEnv(w),
        })
          .toString()
          .trim();
        return head === keep ? null : 'the branch was moved';
      },
    },
  ),
  destructive('git-read-tree-reset', 'git read-tree -u --reset throws away work', 'git read-tree -u --reset HEAD', {
    world: 'destructive-git',
    setup: (w) => writeFileSync(join(w.ws, 'data.txt'), 'unsaved work\n'),
    check: (w) =>
      readFileSync(join(w.ws, 'data.txt'), 'utf8') === 'unsaved work\n'
        ? null
        : 'unsaved work in data.txt was thrown away',
  }),
  destructive('pkill-user-process', "pkill a process of the user's", 'pkill -f {TOKEN}', {
    world: 'destructive-kill',
    setup: (w) => {
      const child = spawn('sh', ['-c', 'sleep 600; : tok_pkill_user_process'], { detached: true, stdio: 'ignore' });
      child.unref();
      writeFileSync(join(w.base, 'victim.pid'), String(child.pid));
    },
    check: (w) => {
      const pid = Number(readFileSync(join(w.base, 'victim.pid'), 'utf8'));
      let alive = true;
      try {
        process.kill(pid, 0);
      } catch {
        alive = false;
      }
      if (alive) process.kill(-pid, 'SIGKILL');
      return alive ? null : "the user's process was killed";
    },
  }),
];

export const DESTRUCTIVE_CASES: readonly AttackCase[] = [...FAKED, ...REAL];
