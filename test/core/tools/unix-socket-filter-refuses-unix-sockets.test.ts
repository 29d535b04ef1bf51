/**
 * The seccomp program bubblewrap installs, run here by a small classic-BPF interpreter on the
 * system calls that matter, for both architectures it knows (the machine running the test has
 * only one of them): AF_UNIX sockets refused with EPERM, a stream socketpair allowed, a datagram
 * pair and io_uring refused, x32 calls and foreign architectures killed, everything else allowed.
 * The sandbox tests run the same filter for real through bwrap.
 */
import { describe, expect, it } from 'vitest';
import { SYSCALLS, unixSocketFilter, unixSocketFilterProgram } from '../../../src/core/tools/unix-socket-filter';

const ALLOW = 0x7fff0000;
const EPERM = 0x00050001;
const KILL = 0x80000000;
const ARCH = { x86_64: 0xc000003e, aarch64: 0xc00000b7, i386: 0x40000003, riscv64: 0xc00000f3 };
const AF_UNIX = 1;
const AF_INET = 2;
const AF_NETLINK = 16;
const SOCK_STREAM = 1;
const SOCK_DGRAM = 2;
const SOCK_CLOEXEC = 0o2000000;
const SOCK_NONBLOCK = 0o4000;

/** struct seccomp_data, little-endian: nr, arch, ip, args[6]. */
function seccompData(arch: number, nr: number, args: readonly number[] = []): Buffer {
  const data = Buffer.alloc(64);
  data.writeInt32LE(nr, 0);
  data.writeUInt32LE(arch, 4);
  args.forEach((arg, index) => data.writeBigUInt64LE(BigInt(arg), 16 + index * 8));
  return data;
}

/** Runs the program as the kernel would (the few opcodes a seccomp filter uses). */
function run(filter: Buffer, data: Buffer): number {
  let acc = 0;
  for (let pc = 0; pc * 8 < filter.length; pc += 1) {
    const code = filter.readUInt16LE(pc * 8);
    const jt = filter.readUInt8(pc * 8 + 2);
    const jf = filter.readUInt8(pc * 8 + 3);
    const k = filter.readUInt32LE(pc * 8 + 4);
    switch (code) {
      case 0x20: // ld w abs
        acc = data.readUInt32LE(k);
        break;
      case 0x54: // and k
        acc = (acc & k) >>> 0;
        break;
      case 0x15: // jeq k
        pc += acc === k ? jt : jf;
        break;
      case 0x35: // jge k
        pc += acc >= k ? jt : jf;
        break;
      case 0x06: // ret k
        return k;
      default:
        throw new Error(`opcode ${code.toString(16)} is not one a seccomp filter should hold here`);
    }
  }
  throw new Error('the program ran off its end');
}

const filter = unixSocketFilter();
const verdict = (arch: number, nr: number, args: readonly number[] = []): number =>
  run(filter, seccompData(arch, nr, args));

describe.each(['x86_64', 'aarch64'] as const)('the Unix socket filter on %s', (name) => {
  const arch = ARCH[name];
  const nr = SYSCALLS[name];

  it('refuses socket(AF_UNIX, …) with EPERM, flags or not', () => {
    expect(verdict(arch, nr.socket, [AF_UNIX, SOCK_STREAM, 0])).toBe(EPERM);
    expect(verdict(arch, nr.socket, [AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0])).toBe(EPERM);
  });

  it('looks at the low 32 bits of the domain only, as the kernel does', () => {
    expect(verdict(arch, nr.socket, [2 ** 32 + AF_UNIX, SOCK_STREAM, 0])).toBe(EPERM);
  });

  it('allows other socket families', () => {
    expect(verdict(arch, nr.socket, [AF_INET, SOCK_STREAM, 0])).toBe(ALLOW);
    expect(verdict(arch, nr.socket, [AF_NETLINK, SOCK_DGRAM, 0])).toBe(ALLOW);
  });

  it('allows a stream socketpair (runtimes pipe their children through one) and refuses a datagram pair', () => {
    expect(verdict(arch, nr.socketpair, [AF_UNIX, SOCK_STREAM, 0])).toBe(ALLOW);
    expect(verdict(arch, nr.socketpair, [AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0])).toBe(ALLOW);
    expect(verdict(arch, nr.socketpair, [AF_UNIX, SOCK_DGRAM, 0])).toBe(EPERM);
    expect(verdict(arch, nr.socketpair, [AF_UNIX, 5, 0])).toBe(EPERM);
  });

  it('refuses io_uring, which opens sockets without the socket call', () => {
    expect(verdict(arch, nr.io_uring_setup, [8, 0])).toBe(EPERM);
  });

  it("refuses the kernel's keyrings, which no namespace separates (add_key, request_key, keyctl)", () => {
    expect(verdict(arch, nr.add_key, [0, 0, 0, 1, -3 >>> 0])).toBe(EPERM);
    expect(verdict(arch, nr.request_key, [0, 0, 0, 0])).toBe(EPERM);
    expect(verdict(arch, nr.keyctl, [0, -3 >>> 0, 0])).toBe(EPERM);
  });

  it('allows the rest', () => {
    for (const other of [0, 1, 2, 3, 56, 57, 59, 63, 64, 221, 231]) {
      if ((Object.values(nr) as number[]).includes(other)) continue;
      expect(verdict(arch, other, [AF_UNIX])).toBe(ALLOW);
    }
  });
});

describe('the Unix socket filter on anything else', () => {
  it('kills x32 calls on x86_64 (socket there has another number)', () => {
    expect(verdict(ARCH.x86_64, 0x40000000 + 41, [AF_UNIX, SOCK_STREAM, 0])).toBe(KILL);
    expect(verdict(ARCH.x86_64, 0x40000000, [])).toBe(KILL);
  });

  it('kills i386 calls (socketcall) and unknown architectures', () => {
    expect(verdict(ARCH.i386, 102, [1, 0])).toBe(KILL);
    expect(verdict(ARCH.riscv64, 198, [AF_UNIX, SOCK_STREAM, 0])).toBe(KILL);
  });

  it('is whole struct sock_filter entries, every jump landing inside the program', () => {
    const program = unixSocketFilterProgram();
    expect(filter.length).toBe(program.length * 8);
    program.forEach((instruction, index) => {
      if (instruction.code === 0x15 || instruction.code === 0x35) {
        expect(index + 1 + instruction.jt).toBeLessThan(program.length);
        expect(index + 1 + instruction.jf).toBeLessThan(program.length);
      }
    });
    expect(program.at(-1)?.code).toBe(0x06);
  });
});
