import { defineVerb } from '../../verb.js';
import { TRIGGER_VERBS } from './registry.js';

// svc trigger: contract §9. The group is a verb itself (`svc trigger --list`) and each event type a
// verb under it (`svc trigger message.received …`), from the registry beside it.
export const command = defineVerb({
  name: 'trigger',
  summary: "Sandbox: make the outside world act (a consumer's text, a call, a carrier's verdict)",
  args: [{ name: 'event-type', help: 'the event to cause (svc trigger --list)', optional: true, complete: { values: TRIGGER_VERBS.map((v) => v.name) } }],
  flags: [{ flags: '--list', help: 'list every trigger type with a one-line description' }],
  details: `Sandbox only: makes the outside world act on the local service (a consumer's text, a carrier's
verdict, …), with the same effects and events as the real thing. Each type has its own flags:
svc trigger <event-type> --help. Without a type or --list: exit 2, naming --list.`,
  examples: [
    'svc trigger --list',
    'svc trigger message.received --to +14155550100 --from +14155550123 --body "hi"',
    'svc trigger call.missed --to +14155550100 --from +14155550123',
  ],
  run: async () => (await import('./trigger.run.js')).runTrigger,
});

export const verbs = TRIGGER_VERBS;
