/** The `<domain>` argument of get, verify and remove: the API addresses domains by id; a name is looked up. */
export const DOMAIN_ARG = ['<domain>', 'the domain name (send.example.com) or its id (dom_…)'] as const;
