// An email sign-up: a new member gets a welcome email from the shop's verified domain.
import { api } from './api.mjs';

export const SENDER = 'Bayview Dental <hello@mail.bayview.example>';

export async function signUp(env, { email, name }) {
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error(`not an email address: ${email}`);
  return api(env, 'POST', '/v1/emails', {
    from: SENDER,
    to: email,
    subject: `Welcome to Bayview Dental, ${name}`,
    text: `Hi ${name}, thanks for signing up. Book your first visit at https://bayviewdental.example/book`,
  });
}
