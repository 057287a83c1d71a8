import { defineVerb } from '../../verb.js';
import { plainDelete, plainList } from '../../plain-verbs.js';
import { deviceList, softphoneEndpoints } from '../../../api/resources/softphone.js';
import { DEVICE_PRESENCES } from '../../../api/values/calls.js';
import { DEVICE_COLUMNS } from './columns.js';

// svc softphone: spec Softphone; contract §6.
export const subgroups = { devices: 'Softphone devices: register, list, delete, mint login tokens, report presence' };

const device = { name: 'id', help: 'device id (dev_…)', complete: 'devices' } as const;

export const verbs = [
  defineVerb({
    name: 'devices register',
    summary: 'Register a softphone device for one of your users (the same user and label give the same device)',
    flags: [
      { flags: '--user <id>', help: 'your user the device belongs to', required: true },
      { flags: '--label <label>', help: 'a name unique per user, e.g. "Front desk"', required: true },
    ],
    examples: ['svc softphone devices register --user u_42 --label "Front desk"', 'svc softphone devices register --user u_42 --label laptop -o ids'],
    changes: true,
    api: softphoneEndpoints.register,
    run: async () => (await import('./register.run.js')).runRegisterDevice,
  }),
  {
    ...plainList({
      summary: 'List softphone devices with their presence',
      endpoint: deviceList,
      noun: 'devices',
      columns: DEVICE_COLUMNS,
      details: 'A device silent for 60 s reads offline, and ring waves skip it.',
      examples: ['svc softphone devices list', 'svc softphone devices list -o ids'],
    }),
    name: 'devices list',
  },
  {
    ...plainDelete({
      summary: 'Delete a softphone device (asks first); routes that ring it skip it',
      arg: device,
      endpoint: softphoneEndpoints.remove,
      confirm: 'Delete softphone device {id}? It can no longer log in or ring.',
      details: 'Without a terminal, pass --yes (otherwise exit 2, nothing deleted).',
      examples: ['svc softphone devices delete dev_QsPrEIJNI9Llw4pbfp1w', 'svc softphone devices delete dev_QsPrEIJNI9Llw4pbfp1w --yes'],
    }),
    name: 'devices delete',
  },
  defineVerb({
    name: 'devices token',
    summary: 'Mint a short-lived login token for a device (valid 10 minutes)',
    args: [device],
    details: `On a terminal the token and its expiry are shown; piped, only the token is printed (for scripts).
Mint a new one whenever the device's registration fails.`,
    examples: ['svc softphone devices token dev_QsPrEIJNI9Llw4pbfp1w', 'TOKEN=$(svc softphone devices token dev_QsPrEIJNI9Llw4pbfp1w)'],
    changes: true,
    api: softphoneEndpoints.token,
    run: async () => (await import('./token.run.js')).runDeviceToken,
  }),
  defineVerb({
    name: 'devices presence',
    summary: "Report a device's presence: a heartbeat (online) or going away (offline)",
    args: [device, { name: 'status', help: 'online or offline', choices: DEVICE_PRESENCES }],
    details: `A real softphone sends online about every 20 seconds while registered; a device silent for 60 s
reads offline and ring waves skip it.`,
    examples: ['svc softphone devices presence dev_QsPrEIJNI9Llw4pbfp1w online', 'svc softphone devices presence dev_QsPrEIJNI9Llw4pbfp1w offline'],
    changes: true,
    api: softphoneEndpoints.presence,
    run: async () => (await import('./presence.run.js')).runDevicePresence,
  }),
  defineVerb({
    name: 'call',
    summary: 'Place an outbound call through a softphone device: the device rings and auto-answers, then the callee is dialed',
    flags: [
      { flags: '--device <id>', help: 'the device that places the call (dev_…)', required: true, complete: 'devices' },
      { flags: '--from <number>', help: 'one of your voice numbers (id or E.164), shown to the callee', required: true, complete: 'numbers' },
      { flags: '--to <e164>', help: 'the callee, E.164', required: true },
    ],
    details: `Prints the new call (direction outbound). Follow it with svc calls get <id>; while it is
in_progress it can be handed on with svc calls transfer.`,
    examples: [
      'svc softphone call --device dev_QsPrEIJNI9Llw4pbfp1w --from +14155550100 --to +14155550123',
      'svc softphone call --device dev_QsPrEIJNI9Llw4pbfp1w --from +14155550100 --to +14155550123 -o ids',
    ],
    changes: true,
    api: softphoneEndpoints.call,
    run: async () => (await import('./call.run.js')).runSoftphoneCall,
  }),
];
