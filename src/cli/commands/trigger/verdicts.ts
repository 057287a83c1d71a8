/** contract §9: the verdicts the sandbox decision endpoints take (RegistryDecisionBody, SandboxPortDecisionBody). */
export const REGISTRY_VERDICTS = ['approved', 'rejected'] as const;
