/** A file (or a directory's listing) the user attached to a prompt with `@path`, as the user entry records it. */
export interface Attachment {
  /** Workspace-relative, as the guarded resolver found it. */
  readonly path: string;
  readonly kind: 'file' | 'directory';
  /** The file's text up to the cap, or the directory's names, one a line (a `/` after a directory). */
  readonly text: string;
  /** The file's whole size in bytes, or the directory's number of names. */
  readonly size: number;
  /** Set when `text` holds only the start: the file is larger than the cap, or the directory has more names. */
  readonly cut?: true;
}

/** An attached file gives the model at most this many bytes of its start. */
export const ATTACHMENT_CAP_BYTES = 32 * 1024;
/** An attached directory lists at most this many names. */
export const ATTACHMENT_CAP_NAMES = 200;
