// How `svc trigger dns.break` breaks a record: its name answers nothing, or the record answers a
// wrong value. Read by the trigger's flags and by its run module.
export const DNS_BREAKS = ['missing', 'wrong'] as const;
