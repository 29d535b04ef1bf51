/** A register change as the session file stores it: the registers layer defines it, storage carries it. */
interface RegisterSetRecord {
  readonly kind: 'register';
  readonly op: 'set';
  readonly seq: number;
  readonly namespace: string;
  readonly key: string;
  readonly value: unknown;
}

interface RegisterDeleteRecord {
  readonly kind: 'register';
  readonly op: 'delete';
  readonly seq: number;
  readonly namespace: string;
  readonly key: string;
}

export type RegisterRecord = RegisterSetRecord | RegisterDeleteRecord;
