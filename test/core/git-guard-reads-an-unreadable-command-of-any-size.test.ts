/**
 * What the parser cannot read the guard check reads loosely, each word as a program with the words
 * after it: that reading grows with the square of a command's words, and a line of 40,000 words
 * over the parser's cap took more than 4 GB and ended tole while it assessed the call. A command
 * read loosely with more than LOOSE_WORDS_MAX words is now a finding of its own (it does not run
 * unconfined, and no key accepts it), its words unread; one within the bound is read word by word
 * as before, wherever in the line it stands.
 */
import { describe, expect, it } from 'vitest';
import { isReachDrop, keyMayAccept } from '../../src/core/approval/unconfined-vetting';
import { MAX_COMMAND_LINE_CHARS } from '../../src/core/approval/shell/syntax';
import { guardDrops, LOOSE_WORDS_MAX } from '../../src/core/git-guard-drops';
import { gitReachSign } from '../../src/core/git-reach-signs';

const tooMany = (drops: readonly string[]): boolean => drops.some((drop) => drop.includes(`${LOOSE_WORDS_MAX} words`));
const words = (count: number): string => 'a '.repeat(count).trim();

describe('a command read loosely', () => {
  it('over the parser cap, of 40,000 words: a finding no key accepts, read without running out of memory', () => {
    const line = `echo ${words(40_000)} git diff`;
    expect(line.length).toBeGreaterThan(MAX_COMMAND_LINE_CHARS);
    const drops = guardDrops(line);
    expect(tooMany(drops)).toBe(true);
    expect(keyMayAccept(drops)).toBe(false);
    expect(gitReachSign(line)).toBeNull();
  });

  it('inside a line the parser reads (bash -c text it cannot), of 15,000 words: the same finding', () => {
    const line = `bash -c "echo ${words(15_000)} git (("`;
    expect(line.length).toBeLessThan(MAX_COMMAND_LINE_CHARS);
    const drops = guardDrops(line);
    expect(tooMany(drops)).toBe(true);
    expect(keyMayAccept(drops)).toBe(false);
  });

  it('within the bound is read word by word, its last words too', () => {
    // `case` is a keyword the parser does not read: the whole line is read loosely. make's
    // arguments are read as programs (echo's would not be: it runs none of them).
    const fill = words(LOOSE_WORDS_MAX - 5);
    const within = guardDrops(`case x in esac; make ${fill} env -i git diff`);
    expect(within.some((drop) => drop.includes('env -i'))).toBe(true);
    expect(tooMany(within)).toBe(false);
    const reach = guardDrops(`case x in esac; make ${fill} sudo git`);
    expect(reach.every(isReachDrop)).toBe(true);
    expect(reach.some((drop) => drop.includes('sudo'))).toBe(true);
    expect(gitReachSign(`case x in esac; make ${fill} ln -s /usr/bin/git g`)).toContain('link or copy');
  });

  it('one word past the bound is the finding, wherever the command stands in the line', () => {
    const over = words(LOOSE_WORDS_MAX);
    for (const line of [
      `case x in esac; echo ${over}`,
      `case x in esac; true; true | echo ${over} && true`,
      `true; bash -c "echo ${over} (("`,
    ])
      expect(tooMany(guardDrops(line)), line.slice(0, 40)).toBe(true);
    // Many commands each within the bound: every one read, none of them the finding.
    const parts = Array.from({ length: 300 }, () => `make ${words(LOOSE_WORDS_MAX - 5)} env -u A`).join('; ');
    const many = guardDrops(`case x in esac; ${parts}`);
    expect(tooMany(many)).toBe(false);
    expect(many.some((drop) => drop.includes('env'))).toBe(true);
  });
});
