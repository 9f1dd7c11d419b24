import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

// Symbolic links followed before giving up, as the kernel's own limit (MAXSYMLINKS, 40 on Linux).
const MAX_LINKS = 40;

/**
 * Whether two paths name the same file, as the system would open them: the same inode when both
 * exist (symbolic and hard links, relative paths), else the same canonical path (a symbolic link
 * to a file not created yet counts as its target). Used to refuse `-o F --cache F`, where SQLite
 * would overwrite the results and a later `--resume` would count database bytes as lines.
 *
 * @example
 * ```ts
 * isSameFile("out.txt", "./dir/../out.txt"); // true
 * ```
 */
export function isSameFile(a: string, b: string): boolean {
  const sa = statOrUndefined(a);
  const sb = statOrUndefined(b);
  if (sa !== undefined && sb !== undefined) return sa.dev === sb.dev && sa.ino === sb.ino;
  return canonicalPath(a) === canonicalPath(b);
}

function statOrUndefined(path: string): { dev: number; ino: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

// The absolute path `path` leads to, its symbolic links (even dangling ones) followed.
function canonicalPath(path: string): string {
  let current = resolve(path);
  for (let i = 0; i < MAX_LINKS; i++) {
    let target: string;
    try {
      if (!lstatSync(current).isSymbolicLink()) break;
      target = readlinkSync(current);
    } catch {
      break;
    }
    current = resolve(dirname(current), target);
  }
  try {
    return join(realpathSync(dirname(current)), basename(current));
  } catch {
    return current;
  }
}
