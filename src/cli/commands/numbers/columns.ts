// Columns of phone numbers, shared by the numbers verbs.
export const NUMBER_LIST_COLUMNS = ['id', 'phoneNumber', 'type', 'status', 'label', 'locality', 'region', 'campaignName', 'tfvStatus', 'createdAt'];
export const NUMBER_COLUMNS = ['id', 'phoneNumber', 'type', 'status', 'label', 'capabilities', 'campaignId', 'campaignName', 'callerIdName', 'emergency', 'tfvStatus', 'tfvRejectionReason', 'releasedAt'];
