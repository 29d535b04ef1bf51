/**
 * The bytes a record begins with, and those between its values, when tole wrote it (its keys in
 * tole's order, no spaces): what the fast readers of a commit line (lazy-commit.ts, and the first
 * open's column scan, column-scan.ts) look for before they fall back to reading the JSON whole.
 */
import { ENTRY_TYPES } from '../tree/entry-types';

const bytesOf = (text: string): Buffer => Buffer.from(text, 'latin1');

export const ENTRY_HEAD = bytesOf('{"kind":"entry","seq":');
export const REGISTER_SEQ_HEAD = bytesOf('{"kind":"register","seq":');
export const REGISTER_OP_HEAD = bytesOf('{"kind":"register","op":');
export const USAGE_HEAD = bytesOf('{"kind":"usage","seq":');
export const AFTER_SEQ_OP = bytesOf(',"op":');
export const AFTER_OP_SEQ = bytesOf(',"seq":');
export const AFTER_TIMESTAMP = bytesOf(',"timestamp":');
export const AFTER_ID = bytesOf(',"id":');
export const AFTER_PARENT = bytesOf(',"parentId":');
export const AFTER_TYPE = bytesOf(',"type":');
export const AFTER_PAYLOAD = bytesOf(',"payload":');
export const AFTER_NAMESPACE = bytesOf(',"namespace":');
export const AFTER_KEY = bytesOf(',"key":');
export const AFTER_VALUE = bytesOf(',"value":');

/** Values read as written: `null`, a register's op, and each entry type as a JSON string. */
export const NULL = bytesOf('null');
export const SET = bytesOf('"set"');
export const DELETE = bytesOf('"delete"');
export const QUOTED_TYPES = ENTRY_TYPES.map((type) => Buffer.from(JSON.stringify(type), 'utf8'));
