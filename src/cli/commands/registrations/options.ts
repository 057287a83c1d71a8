// The registrations verbs' options (the flags as commander gives them but draft's, grouped).

/** The business info flags by API name (spec: Business info). */
export interface DraftOptions {
  fields: { legalName?: string; description?: string; ein?: string; website?: string; vertical?: string; optInChannel?: string };
  file?: string;
}

export const draftOptionsOf = (o: DraftOptions['fields'] & { file?: string }): DraftOptions => {
  const { file, ...fields } = o;
  return { fields, file };
};

export interface PredictOptions {
  file: string;
}

export interface SubmitOptions {
  file: string;
  mock?: boolean;
  idempotencyKey?: string;
}
