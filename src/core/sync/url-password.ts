/** Whether `url` carries a password (`postgres://user:password@host/...`). */
export function urlHasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return /^[^:/]+:\/\/[^/@]*:[^/@]*@/.test(url);
  }
}
