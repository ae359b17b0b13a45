// The bulk directory (BULK_DIR). Each export is written into a directory of its own and served
// only once complete, by replacing one symbolic link, so a reader sees the previous export or the
// next one, never half of one:
//   exports/.partial-<id>/   an export being written (removed when it fails)
//   exports/<id>/            a finished export: its gzip files and index.json
//   current -> exports/<id>  the export served (a link replaced by rename(2), which is atomic)
// The previous export is kept until the next one replaces it, so a download that resolved its file
// just before a switch still finds it; older ones are removed.
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readdir, readFile, readlink, realpath, rename, rm, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

export interface Written {
  bytes: number;
  sha256: string;
}

const PARTIAL = '.partial-';
/** A partial export older than this was left by a process that died; it is removed. */
const STALE_PARTIAL_MS = 24 * 3600 * 1000;

export const MANIFEST_FILE = 'index.json';

/** A directory name for an export made at `at`: sortable, unique. */
export function exportId(at: Date): string {
  return `${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(3).toString('hex')}`;
}

/** Makes the directory an export is written into. */
export async function startExport(dir: string, id: string): Promise<string> {
  const path = join(dir, 'exports', `${PARTIAL}${id}`);
  await mkdir(path, { recursive: true });
  return path;
}

/** Counts and hashes the bytes passing through. */
function measure(): { through: Transform; result(): Written } {
  const hash = createHash('sha256');
  let bytes = 0;
  const through = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  return { through, result: () => ({ bytes, sha256: hash.digest('hex') }) };
}

/**
 * Gzips what `source` yields into `path`, streaming: the file is never held in memory, and a
 * source that produces faster than the disk takes is paused (backpressure through the pipeline).
 */
export async function writeGzip(path: string, source: AsyncIterable<string | Buffer> | Readable, signal?: AbortSignal): Promise<Written> {
  const { through, result } = measure();
  const input = source instanceof Readable ? source : Readable.from(source);
  await pipeline(input, createGzip(), through, createWriteStream(path), ...(signal ? [{ signal }] : []));
  return result();
}

/** Input read at a time by gzipFile, into one buffer used again and again. */
const READ_BYTES = 1 << 20;

/**
 * Gzips a file into `path`. The file (the SQLite copy: gigabytes for a large record) is read into
 * one reused buffer, each piece handed to gzip only once it took the last (the write callback of a
 * Transform comes once the chunk is processed): reading through a file stream would leave a fresh
 * buffer behind for every 64 KiB, memory outside V8's heap that is given back only by a collection.
 */
export async function gzipFile(from: string, path: string, signal?: AbortSignal): Promise<Written> {
  const { through, result } = measure();
  const gzip = createGzip();
  const written = pipeline(gzip, through, createWriteStream(path), ...(signal ? [{ signal }] : []));
  const file = await open(from, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_BYTES);
    for (;;) {
      signal?.throwIfAborted();
      const { bytesRead } = await file.read(buffer, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      await new Promise<void>((resolve, reject) => gzip.write(buffer.subarray(0, bytesRead), (err) => (err ? reject(err) : resolve())));
    }
    gzip.end();
    await written;
  } catch (err) {
    gzip.destroy(err as Error);
    await written.catch(() => {});
    throw err;
  } finally {
    await file.close();
  }
  return result();
}

/** Makes a finished export the one served, then removes all but it and the previous one. */
export async function publish(dir: string, partial: string, id: string): Promise<void> {
  const finished = join(dir, 'exports', id);
  await rename(partial, finished);
  const previous = await readlink(join(dir, 'current')).catch(() => null);
  const link = join(dir, `.current-${randomBytes(4).toString('hex')}`);
  await symlink(join('exports', id), link);
  await rename(link, join(dir, 'current'));
  const keep = new Set([id, ...(previous ? [previous.split('/').pop()!] : [])]);
  await prune(dir, keep);
}

/** Removes exports not in `keep`, and partial ones left long ago by a process that died. */
async function prune(dir: string, keep: Set<string>): Promise<void> {
  const root = join(dir, 'exports');
  for (const name of await readdir(root)) {
    if (keep.has(name)) continue;
    const path = join(root, name);
    if (name.startsWith(PARTIAL)) {
      const info = await stat(path).catch(() => null);
      if (!info || Date.now() - info.mtimeMs < STALE_PARTIAL_MS) continue;
    }
    await rm(path, { recursive: true, force: true });
  }
}

/** Removes a failed export's directory. */
export async function discard(partial: string): Promise<void> {
  await rm(partial, { recursive: true, force: true });
}

/** The directory of the export served now, resolved (so one request reads one export), or null. */
export async function currentExport(dir: string): Promise<string | null> {
  try {
    return await realpath(join(dir, 'current'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export async function readManifestFile(exportDir: string): Promise<unknown> {
  return JSON.parse(await readFile(join(exportDir, MANIFEST_FILE), 'utf8'));
}
