import { defineVerb } from '../../verb.js';

// `svc completion <shell>`: the group is one verb (cli.md: completion).
export const command = defineVerb({
  name: 'completion',
  local: true,
  summary: 'Print a shell completion script (bash, zsh, fish)',
  args: [{ name: 'shell', help: 'bash, zsh or fish', complete: { values: ['bash', 'zsh', 'fish'] } }],
  details: `The script asks \`svc __complete\` at each TAB: commands, flags (global ones anywhere), flag values
(formats, statuses, event types, profiles) and ids from the local service (numbers, webhooks, keys,
sub-accounts) within a short timeout.`,
  examples: ['svc completion bash > /etc/bash_completion.d/svc', 'svc completion zsh > "${fpath[1]}/_svc"', 'svc completion fish > ~/.config/fish/completions/svc.fish'],
  run: async () => (await import('./completion.run.js')).runCompletion,
});
