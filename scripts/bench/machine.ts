/** What the figures were measured on: printed with them and stored in the JSON results. */
import { availableParallelism, cpus, platform, release, totalmem } from 'node:os';
import BetterSqlite3 from 'better-sqlite3';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  availableParallelism: number;
  memoryGiB: number;
  node: string;
  os: string;
  sqlite: string;
}

export function machineInfo(): MachineInfo {
  const list = cpus();
  const db = new BetterSqlite3(':memory:');
  const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  db.close();
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    availableParallelism: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    sqlite,
  };
}

export function describeMachine(m: MachineInfo): string {
  return `${m.cpuModel}, ${m.cores} cores, ${m.memoryGiB} GiB RAM; Node ${m.node}; SQLite ${m.sqlite}; ${m.os}`;
}
