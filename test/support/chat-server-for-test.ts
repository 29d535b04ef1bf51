/**
 * A local chat server for the test running now, closed when that test ends (after what the test
 * opened against it: the test's own undo steps run first, in reverse order of registration).
 */
import { afterTheTest } from './after-the-test';
import { type ChatServer, type ChatServerOptions, startChatServer } from './chat-server';

export async function chatServerForTest(options: ChatServerOptions = {}): Promise<ChatServer> {
  const server = await startChatServer(options);
  afterTheTest(() => server.close());
  return server;
}
