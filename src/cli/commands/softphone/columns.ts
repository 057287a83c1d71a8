// Columns of softphone devices, shared by the softphone verbs.
export const DEVICE_COLUMNS = ['id', 'userId', 'label', 'presence', 'lastSeenAt', 'createdAt'];
