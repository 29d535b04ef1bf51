/**
 * The seccomp filter bubblewrap installs (`--seccomp FD`) before it runs a confined command: no
 * Unix socket of its own, so a command cannot `connect` to a daemon's socket outside the sandbox
 * (the user's tmux server, PostgreSQL, docker, D-Bus) and have it act unconfined; with the network
 * allowed, abstract sockets are out of reach the same way. A connected pair from `socketpair`
 * (SOCK_STREAM, what runtimes use for a child's pipes) cannot be pointed at a path and stays
 * allowed; a datagram pair can (`sendto` with an address), so it is refused. io_uring can open
 * sockets without the socket call, so it is refused too. The kernel's keyrings are in no namespace
 * bubblewrap makes: a confined command holds the session keyring of the tole that started it (the
 * user's login keyring, where Kerberos tickets and cached passphrases live) and could add, replace
 * or clear keys there, so `add_key`, `request_key` and `keyctl` are refused as well.
 *
 * Classic BPF, written out here: npm holds no maintained seccomp builder, and the program is
 * some thirty instructions. Only x86_64 and aarch64 are known; any other architecture (i386 system
 * calls on x86_64 included) and the x32 calls on x86_64 kill the process.
 */
import { endianness } from 'node:os';

// struct seccomp_data: int nr; __u32 arch; __u64 instruction_pointer; __u64 args[6];
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** The low 32 bits of args[0] on a little-endian machine (the socket domain is an int). */
const ARG0_LOW_OFFSET = 16;
/** args[1]: the socket type, with SOCK_NONBLOCK and SOCK_CLOEXEC in its upper bits. */
const ARG1_LOW_OFFSET = 24;

const BPF_LD_W_ABS = 0x20;
const BPF_JEQ_K = 0x15;
const BPF_JGE_K = 0x35;
const BPF_AND_K = 0x54;
const BPF_RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_KILL_PROCESS = 0x80000000;
const EPERM = 1;
const RET_EPERM = 0x00050000 | EPERM;

const AUDIT_ARCH_X86_64 = 0xc000003e;
const AUDIT_ARCH_AARCH64 = 0xc00000b7;
const X32_SYSCALL_BIT = 0x40000000;
const AF_UNIX = 1;
const SOCK_STREAM = 1;
/** The type without its flags (SOCK_TYPE_MASK). */
const SOCK_TYPE_MASK = 0xf;

/** The system call numbers the filter looks at, per architecture. */
export const SYSCALLS = {
  x86_64: { socket: 41, socketpair: 53, io_uring_setup: 425, add_key: 248, request_key: 249, keyctl: 250 },
  aarch64: { socket: 198, socketpair: 199, io_uring_setup: 425, add_key: 217, request_key: 218, keyctl: 219 },
} as const;

interface Instruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** A jump target by label, resolved once every instruction's place is known. */
type Jump = string | 0;
interface Pending {
  readonly code: number;
  readonly jt: Jump;
  readonly jf: Jump;
  readonly k: number;
  readonly label?: string;
}

const load = (offset: number, label?: string): Pending => ({
  code: BPF_LD_W_ABS,
  jt: 0,
  jf: 0,
  k: offset,
  ...(label ? { label } : {}),
});
const jeq = (k: number, jt: Jump, jf: Jump): Pending => ({ code: BPF_JEQ_K, jt, jf, k });
const jge = (k: number, jt: Jump, jf: Jump): Pending => ({ code: BPF_JGE_K, jt, jf, k });
const ret = (k: number, label: string): Pending => ({ code: BPF_RET_K, jt: 0, jf: 0, k, label });

function archBlock(arch: keyof typeof SYSCALLS): Pending[] {
  const nr = SYSCALLS[arch];
  return [
    load(NR_OFFSET, arch),
    ...(arch === 'x86_64' ? [jge(X32_SYSCALL_BIT, 'kill', 0)] : []),
    jeq(nr.socket, 'socket', 0),
    jeq(nr.socketpair, 'socketpair', 0),
    jeq(nr.add_key, 'eperm', 0),
    jeq(nr.request_key, 'eperm', 0),
    jeq(nr.keyctl, 'eperm', 0),
    jeq(nr.io_uring_setup, 'eperm', 'allow'),
  ];
}

/** The program, instruction by instruction (exported for the test that runs it). */
export function unixSocketFilterProgram(): readonly Instruction[] {
  const pending: Pending[] = [
    load(ARCH_OFFSET),
    jeq(AUDIT_ARCH_X86_64, 'x86_64', 0),
    jeq(AUDIT_ARCH_AARCH64, 'aarch64', 'kill'),
    ...archBlock('x86_64'),
    ...archBlock('aarch64'),
    // socket(domain, …): AF_UNIX refused.
    load(ARG0_LOW_OFFSET, 'socket'),
    jeq(AF_UNIX, 'eperm', 'allow'),
    // socketpair(domain, type, …): an AF_UNIX pair only as SOCK_STREAM.
    load(ARG0_LOW_OFFSET, 'socketpair'),
    jeq(AF_UNIX, 0, 'allow'),
    load(ARG1_LOW_OFFSET),
    { code: BPF_AND_K, jt: 0, jf: 0, k: SOCK_TYPE_MASK },
    jeq(SOCK_STREAM, 'allow', 'eperm'),
    ret(RET_ALLOW, 'allow'),
    ret(RET_EPERM, 'eperm'),
    ret(RET_KILL_PROCESS, 'kill'),
  ];
  const at = new Map<string, number>();
  pending.forEach((instruction, index) => {
    if (instruction.label) at.set(instruction.label, index);
  });
  return pending.map((instruction, index) => {
    const offset = (jump: Jump): number => {
      if (jump === 0) return 0;
      const target = at.get(jump);
      if (target === undefined || target <= index) throw new Error(`seccomp filter: bad jump to ${jump}`);
      const skip = target - index - 1;
      if (skip > 255) throw new Error('seccomp filter: jump too far');
      return skip;
    };
    return { code: instruction.code, jt: offset(instruction.jt), jf: offset(instruction.jf), k: instruction.k };
  });
}

/** The filter as the kernel reads it: `struct sock_filter[]`, 8 bytes each, in this machine's byte order. */
export function unixSocketFilter(): Buffer {
  if (endianness() !== 'LE') throw new Error('seccomp filter: only little-endian machines are known');
  const program = unixSocketFilterProgram();
  const bytes = Buffer.alloc(program.length * 8);
  program.forEach((instruction, index) => {
    bytes.writeUInt16LE(instruction.code, index * 8);
    bytes.writeUInt8(instruction.jt, index * 8 + 2);
    bytes.writeUInt8(instruction.jf, index * 8 + 3);
    bytes.writeUInt32LE(instruction.k >>> 0, index * 8 + 4);
  });
  return bytes;
}
