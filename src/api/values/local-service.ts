// Files the local service keeps in its data directory that the CLI reads too (contract §1).
/** Written by the running service so `svc server stop|status` can find it. */
export const PID_FILE = 'server.json';
