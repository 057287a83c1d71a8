export { bootstrapPath, defaultDataDir, envValue, resolveConfigDir, type Env } from './paths.js';
export { readBootstrap, writeBootstrap, type Bootstrap } from './bootstrap.js';
export {
  DEFAULT_BASE_URL,
  LOCAL_PROFILE,
  ProfileNotFoundError,
  ProfileStore,
  assertProfileName,
  localProfile,
  openProfileStore,
  storedProfile,
  type OpenProfileStoreOptions,
  type Profile,
  type ProfileReader,
  type ProfileSources,
  type ProfileUpdate,
  type StoredProfile,
} from './profiles.js';
export {
  OUTPUT_FORMATS,
  SettingsError,
  isOutputFormat,
  resolveSettings,
  type OutputFormat,
  type ResolveSettingsInput,
  type Settings,
  type SettingsFlags,
  type SettingsSources,
} from './resolve.js';
