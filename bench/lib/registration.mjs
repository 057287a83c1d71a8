// A brand and a campaign the approval prediction approves at once (with `mock: true` on the brand):
// what a bench needs to send from a live number. Shared by the benches.
export const BRAND = {
  legalName: 'Bench Shop LLC', displayName: 'Bench Shop', entityType: 'PRIVATE_PROFIT', ein: '12-3456789', website: 'https://benchshop.example',
  email: 'ops@benchshop.example', phone: '+14155550100', street: '1 Bay St', city: 'San Francisco', state: 'CA', postalCode: '94105', country: 'US',
};
export const CAMPAIGN = {
  name: 'Order updates',
  useCase: 'ACCOUNT_NOTIFICATION',
  description: 'Bench Shop sends order and shipping updates to customers who asked for them at checkout on our website.',
  optInDetails:
    'Customers opt in at checkout on https://benchshop.example by checking an unchecked box: "I agree to receive order update texts from Bench Shop. Consent is not a condition of purchase. Message frequency varies. Msg & data rates may apply. Reply STOP to opt out, HELP for help."',
  sampleMessages: [
    'Bench Shop: your order 1234 has shipped and arrives Friday. Reply STOP to opt out.',
    'Bench Shop: your order 1235 is delayed a day. Reply HELP for help, STOP to opt out.',
  ],
  optinKeywords: 'START',
  optinMessage: 'Bench Shop: you are subscribed to order updates. Msg frequency varies. Msg & data rates may apply. Reply HELP for help, STOP to cancel.',
  optoutKeywords: 'STOP',
  optoutMessage: 'Bench Shop: you are unsubscribed and will receive no more messages.',
  helpKeywords: 'HELP',
  helpMessage: 'Bench Shop: for help call +14155550100 or email ops@benchshop.example. Reply STOP to cancel.',
  privacyPolicyLink: 'https://benchshop.example/privacy',
  termsAndConditionsLink: 'https://benchshop.example/terms',
  websiteUrl: 'https://benchshop.example',
  embeddedLink: false,
  embeddedPhone: false,
  subscriberOptin: true,
  subscriberOptout: true,
  subscriberHelp: true,
};
