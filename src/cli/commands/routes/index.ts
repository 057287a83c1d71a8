import { defineVerb } from '../../verb.js';
import { routeEndpoints } from '../../../api/resources/routes.js';

// svc routes: cli.md "Routes as code"; contract §5.
const NUMBER_ARG = { name: 'number', help: 'number id (num_…) or E.164', complete: 'numbers' } as const;
const FILE_FLAG = { flags: '-f, --file <file>', help: 'the route document, YAML or JSON (- for stdin)', required: true, local: { content: 'route' } } as const;

export const verbs = [
  defineVerb({
    name: 'get',
    summary: "Show a number's call route (-o yaml: the document `apply` takes)",
    args: [NUMBER_ARG],
    examples: ['svc routes get +14155550123', 'svc routes get +14155550123 -o yaml > route.yaml', 'svc routes get num_n0STtke71XAzVlsShJVy -o json'],
    api: routeEndpoints.get,
    run: async () => (await import('./get.run.js')).runGet,
  }),
  defineVerb({
    name: 'apply',
    summary: "Replace a number's call route with a YAML or JSON document (--dry-run: show the change, send nothing)",
    args: [NUMBER_ARG],
    flags: [FILE_FLAG],
    examples: [
      'svc routes get +14155550123 -o yaml > route.yaml',
      'svc routes apply +14155550123 -f route.yaml',
      'svc routes apply +14155550123 -f route.yaml --dry-run',
      'cat route.json | svc routes apply num_n0STtke71XAzVlsShJVy -f -',
    ],
    changes: true,
    api: routeEndpoints.put,
    run: async () => (await import('./apply.run.js')).runApply,
  }),
  defineVerb({
    name: 'diff',
    summary: 'Show the change a route document would make (exit 0: none, 1: changes, 2 or more: an error)',
    args: [NUMBER_ARG],
    flags: [FILE_FLAG],
    examples: ['svc routes diff +14155550123 -f route.yaml', 'svc routes diff +14155550123 -f route.yaml && echo "up to date"'],
    api: routeEndpoints.get,
    run: async () => (await import('./diff.run.js')).runDiff,
  }),
  defineVerb({
    name: 'edit',
    summary: "Edit a number's call route in $VISUAL or $EDITOR (else vi): validated, shown and confirmed before it is sent",
    args: [NUMBER_ARG],
    details:
      'The plan is computed against the route saved when the editor closes: a change made on the service\nwhile you edit is said, and is the base the plan shows (your file replaces the route whole); with\n--yes, which confirms a plan unread, it is refused (exit 5). A change made after the plan was shown\nis never overwritten (exit 5); the edit is kept in a file for\n`svc routes apply`. Without a terminal, use `svc routes apply`.',
    examples: ['svc routes edit +14155550123', 'EDITOR=nano svc routes edit num_n0STtke71XAzVlsShJVy', 'svc routes edit +14155550123 --yes'],
    prompts: true,
    changes: true,
    // An editor needs a person at a terminal: not an MCP tool.
    terminal: true,
    api: routeEndpoints.put,
    run: async () => (await import('./edit.run.js')).runEdit,
  }),
];
