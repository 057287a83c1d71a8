import path from 'node:path';

/** Environment variables as read by the config layer; passed in, never read from `process`. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A variable counts as set only when non-empty (`SVC_PROFILE= svc …` means "unset"). */
export function envValue(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

/**
 * The local service's data dir (contract §1): `SVC_DATA_DIR`, else `$XDG_DATA_HOME/svc`,
 * else `~/.local/share/svc`. A relative `XDG_DATA_HOME` is ignored, as the XDG spec requires.
 */
export function defaultDataDir(env: Env, homedir: string): string {
  const explicit = envValue(env, 'SVC_DATA_DIR');
  if (explicit !== undefined) return explicit;
  const xdg = envValue(env, 'XDG_DATA_HOME');
  if (xdg !== undefined && path.isAbsolute(xdg)) return path.join(xdg, 'svc');
  return path.join(homedir, '.local', 'share', 'svc');
}

/** `<dataDir>/bootstrap.json`, written by the local service on its first start. */
export function bootstrapPath(dataDir: string): string {
  return path.join(dataDir, 'bootstrap.json');
}

/**
 * The platform config dir for profiles, as `conf` (env-paths, no suffix) would choose it. We pass it
 * to conf explicitly, so the fast read path (readProfilesFile) and conf always agree on the file.
 */
export function defaultConfigDir(env: Env, homedir: string, platform: string): string {
  if (platform === 'darwin') return path.join(homedir, 'Library', 'Preferences', 'svc');
  if (platform === 'win32') return path.join(envValue(env, 'APPDATA') ?? path.join(homedir, 'AppData', 'Roaming'), 'svc', 'Config');
  const xdg = envValue(env, 'XDG_CONFIG_HOME');
  return path.join(xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(homedir, '.config'), 'svc');
}

/** Where profiles live (cli.md: `--config-dir` / `SVC_CONFIG_DIR`, else the platform config dir). */
export function resolveConfigDir(flag: string | undefined, env: Env, homedir: string, platform: string): string {
  if (flag !== undefined && flag !== '') return flag;
  return envValue(env, 'SVC_CONFIG_DIR') ?? defaultConfigDir(env, homedir, platform);
}

export const CONFIG_FILE = 'config.json';
