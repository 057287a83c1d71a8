/** The methods `svc api` sends (case-insensitive on the command line). */
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethodWord = (typeof HTTP_METHODS)[number];
