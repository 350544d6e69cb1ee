// Memory and CPU of other processes, read from /proc (Linux): the service under --via-api, the
// engine nodes under --nodes. A process that is gone or a system without /proc reads as null.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Kernel clock ticks per second of utime/stime in /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface ProcessReading {
  rss: number;
  /** User + system CPU time so far, ms. */
  cpuMs: number;
}

export function readProcess(pid: number): ProcessReading | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
    if (!Number.isFinite(ticks) || !Number.isFinite(rssKb)) return null;
    return { rss: rssKb * 1024, cpuMs: (ticks * 1000) / TICKS_PER_SECOND };
  } catch {
    return null;
  }
}

/** The sum over several processes (the ones that could be read), or null if none could. */
export function readProcesses(pids: readonly number[]): ProcessReading | null {
  const readings = pids.map(readProcess).filter((r): r is ProcessReading => r !== null);
  if (readings.length === 0) return null;
  return readings.reduce((a, r) => ({ rss: a.rss + r.rss, cpuMs: a.cpuMs + r.cpuMs }));
}

/** CPU in % of one core between two readings taken `wallMs` apart. */
export const cpuPercentBetween = (from: ProcessReading, to: ProcessReading, wallMs: number): number =>
  Math.round(((to.cpuMs - from.cpuMs) / Math.max(1, wallMs)) * 1000) / 10;

/**
 * The pid of the process listening on a TCP port of this machine: the listening socket's inode
 * from /proc/net/tcp{,6}, then the process holding it among /proc/<pid>/fd. Null when not found
 * (another user's process, no /proc).
 */
export function findListenerPid(port: number): number | null {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT, st 0A is LISTEN, inode is column 10.
      if (cols.length > 9 && cols[3] === '0A' && parseInt(cols[1].split(':')[1], 16) === port)
        inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        if (target.startsWith('socket:[') && inodes.has(target.slice(8, -1))) return Number(entry);
      } catch {
        // The descriptor closed while we looked.
      }
    }
  }
  return null;
}
