import { defineVerb, runConverted } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { numberEndpoints, numberList } from '../../../api/resources/numbers.js';
import { routeEndpoints } from '../../../api/resources/routes.js';
import { CAPABILITY_NAMES, NUMBER_STATUSES, NUMBER_TYPES } from '../../../api/values/numbers.js';
import { GREETING_AUDIO_TYPES } from '../../../api/values/routes.js';
import { assignOptionsOf, buyOptionsOf, searchOptionsOf, updateOptionsOf, verifyTollfreeOptionsOf } from './options.js';

// svc numbers: spec Numbers; contract §5.
const NUMBER_ARG = { name: 'number', help: 'number id (num_…) or E.164', complete: 'numbers' } as const;

export const verbs = [
  defineVerb({
    name: 'search',
    summary: 'Search the carrier inventory for numbers to buy',
    flags: [
      { flags: '--area-code <nnn>', help: 'three-digit area code (a local search needs it)' },
      { flags: '--locality <city>', help: 'narrow to a city of the area code, e.g. "Austin" or "Austin, TX" (without --area-code, the error lists its area codes)' },
      { flags: '--type <type>', help: 'local (default) or tollfree', choices: NUMBER_TYPES },
      { flags: '--contains <digits>', help: '1 to 7 digits anywhere in the number' },
      { flags: '--capability <capability>', help: 'must have it: sms, mms or voice (repeatable)', choices: CAPABILITY_NAMES, repeatable: true },
      { flags: '--limit <n>', help: 'at most N results (1-100, default 20)', json: 'integer' },
    ],
    details: `On a terminal the monthly price shows in dollars ($1.15); -o json/ndjson/csv and piped rows keep
monthlyPriceCents. Buy one with \`svc numbers buy <number>\`.`,
    examples: ['svc numbers search --area-code 415', 'svc numbers search --area-code 512 --locality Austin --capability mms --contains 77', 'svc numbers search --type tollfree --limit 5 -o json'],
    api: numberEndpoints.search,
    run: runConverted(async () => (await import('./search.run.js')).runSearch, searchOptionsOf),
  }),
  defineVerb({
    name: 'buy',
    summary: 'Buy a number found with `svc numbers search` (asks first, showing the monthly price)',
    args: [{ name: 'number', help: 'the number to buy, E.164' }],
    details: `The command looks the number up in the carrier's inventory to show its monthly price, then asks.
A number that is not for sale (taken, or not in the inventory) is refused before anything is bought
(exit 5). Without a terminal, pass --yes (otherwise exit 2, nothing bought).`,
    examples: ['svc numbers buy +14155550123', 'svc numbers buy +18885550123 --yes -o json'],
    prompts: true,
    changes: true,
    api: numberEndpoints.buy,
    run: runConverted(async () => (await import('./buy.run.js')).runBuy, buyOptionsOf),
  }),
  defineVerb({
    name: 'list',
    summary: 'List your numbers, newest first (released ones only with --status released)',
    flags: [
      ...LIST_FLAGS,
      { flags: '--status <status>', help: 'live, idle, pending or released', choices: NUMBER_STATUSES },
      { flags: '--type <type>', help: 'local or tollfree', choices: NUMBER_TYPES },
      { flags: '--campaign <id>', help: 'numbers assigned to this 10DLC campaign', complete: 'campaigns' },
    ],
    examples: ['svc numbers list', 'svc numbers list --type tollfree -o csv', 'svc numbers list --status released --all -o ids'],
    api: { method: 'GET', path: numberList.path },
    run: async () => (await import('./list.run.js')).runListNumbers,
  }),
  defineVerb({
    name: 'get',
    summary: 'Show one of your numbers',
    args: [NUMBER_ARG],
    examples: ['svc numbers get +14155550123', 'svc numbers get num_n0STtke71XAzVlsShJVy -o json'],
    api: numberEndpoints.get,
    run: async () => (await import('./get.run.js')).runGet,
  }),
  defineVerb({
    name: 'update',
    summary: 'Change the label, caller ID name or emergency (E911) address of a number',
    args: [NUMBER_ARG],
    flags: [
      { flags: '--label <label>', help: 'a label of up to 64 characters' },
      { flags: '--clear-label', help: 'remove the label' },
      { flags: '--caller-id-name <name>', help: 'caller ID name shown on calls, 1-15 characters (active about 48 h later)' },
      { flags: '--clear-caller-id-name', help: 'turn the caller ID name off' },
      { flags: '--emergency-street <street>', help: 'emergency address: street and number (turns emergency calling on)' },
      { flags: '--emergency-street2 <street2>', help: 'emergency address: suite, floor (optional)' },
      { flags: '--emergency-city <city>', help: 'emergency address: city' },
      { flags: '--emergency-state <state>', help: 'emergency address: two-letter state code' },
      { flags: '--emergency-zip <zip>', help: 'emergency address: 5-digit ZIP code' },
      { flags: '--emergency', help: 'turn emergency calling on with the address on file' },
      { flags: '--no-emergency', help: 'turn emergency calling off (the address is kept)' },
    ],
    details: `Everything given is applied together, or nothing is. An emergency address needs street, city, state
and zip. When the carrier can place the address only after a correction (exit 8,
address_suggestion), the suggested address is shown; on a terminal you are offered to resubmit it.`,
    examples: [
      'svc numbers update +14155550123 --label "Front desk"',
      'svc numbers update +14155550123 --caller-id-name "ACME DENTAL"',
      `svc numbers update +14155550123 --emergency-street "1 Market St" --emergency-city "San Francisco" \\
      --emergency-state CA --emergency-zip 94105`,
      'svc numbers update num_n0STtke71XAzVlsShJVy --no-emergency --clear-label',
    ],
    prompts: true,
    changes: true,
    api: numberEndpoints.update,
    run: runConverted(async () => (await import('./update.run.js')).runUpdate, updateOptionsOf),
  }),
  defineVerb({
    name: 'release',
    summary: 'Release a number back to the carrier (asks first)',
    args: [NUMBER_ARG],
    details: `The number stops sending and receiving at once, leaves its campaign and loses emergency calling.
Without a terminal, pass --yes (otherwise exit 2, nothing released). Releasing twice: exit 5.`,
    examples: ['svc numbers release +14155550123', 'svc numbers release num_n0STtke71XAzVlsShJVy --yes'],
    prompts: true,
    changes: true,
    api: numberEndpoints.release,
    run: async () => (await import('./release.run.js')).runRelease,
  }),
  defineVerb({
    name: 'assign',
    summary: 'Attach a local number to an approved 10DLC campaign (status live), or detach it (idle)',
    args: [NUMBER_ARG],
    flags: [
      { flags: '--campaign <id>', help: 'the approved campaign to attach the number to', complete: 'campaigns' },
      { flags: '--detach', help: 'detach the number from its campaign' },
    ],
    details: `A campaign that is not approved: exit 5. Toll-free numbers are verified instead
(svc numbers verify-tollfree): exit 8.`,
    examples: ['svc numbers assign +14155550123 --campaign 7d0c2f0e-…', 'svc numbers assign +14155550123 --detach'],
    changes: true,
    api: numberEndpoints.assign,
    run: runConverted(async () => (await import('./assign.run.js')).runAssign, assignOptionsOf),
  }),
  defineVerb({
    name: 'verify-tollfree',
    summary: 'Submit toll-free verification for a toll-free number (the carrier decides about 72 h later)',
    args: [NUMBER_ARG],
    flags: [
      { flags: '--business-name <name>', help: 'the business sending the messages' },
      { flags: '--website <url>', help: 'the business website (a submission without one is rejected)' },
      { flags: '--use-case <text>', help: 'what the messages are for' },
      { flags: '--use-case-summary <text>', help: 'a longer description of the use case' },
      { flags: '--sample-message <text>', help: 'an example message, with opt-out language (STOP)' },
      { flags: '--opt-in-workflow <text>', help: 'how recipients agree to receive messages' },
      { flags: '--monthly-volume <n>', help: 'messages per month' },
      { flags: '--answers <file>', help: 'YAML or JSON with the same fields (businessName, website, …); flags override it', local: {} },
      { flags: '--from-file <file>', help: 'another name for --answers', local: {} },
      { flags: '--resume', help: 'continue with the answers saved when this wizard was interrupted, without asking', local: {} },
    ],
    details: `Missing fields are asked for on a terminal, one at a time, each checked as it is given; without a
terminal (or with --no-input or CI) every missing or invalid one is listed in one error naming its
flag (exit 2). Keys in --answers are the API's names (businessName, useCaseSummary, …) or the flag
names (business-name, use-case-summary, …). Answers typed so far are saved (config dir, wizards/)
until the submission succeeds: run the command again to resume them after Ctrl-C. The command printed
at the end names your --answers FILE when you gave one (typed answers follow as flags), else the
file the wizard wrote (wizards/verify-tollfree-NUMBER.yaml).`,
    examples: [
      'svc numbers verify-tollfree +18885550123 --answers tfv.yaml',
      `svc numbers verify-tollfree +18885550123 --business-name "Acme Dental" --website https://acme.example \\
      --use-case "appointment reminders" --use-case-summary "Reminders a day before each visit" \\
      --sample-message "Acme: see you tomorrow at 3pm. Reply STOP to opt out." \\
      --opt-in-workflow "Patients tick a box on the intake form" --monthly-volume 2000`,
    ],
    prompts: true,
    changes: true,
    api: numberEndpoints.verifyTollfree,
    run: runConverted(async () => (await import('./verify-tollfree.run.js')).runVerifyTollfree, verifyTollfreeOptionsOf),
  }),
  defineVerb({
    name: 'greeting',
    summary: "Upload a number's voicemail greeting recording (mp3, wav or ogg) and print its new URL",
    args: [NUMBER_ARG, { name: 'file', help: 'the recording; its type from the extension (.mp3 .wav .ogg) unless --content-type', local: {} }],
    flags: [{ flags: '--content-type <type>', help: 'the audio type, when the extension does not say', choices: GREETING_AUDIO_TYPES }],
    examples: ['svc numbers greeting +14155550123 greeting.mp3', 'svc numbers greeting num_n0STtke71XAzVlsShJVy recording.bin --content-type audio/wav'],
    changes: true,
    api: routeEndpoints.greeting,
    run: async () => (await import('./greeting.run.js')).runGreeting,
  }),
];
