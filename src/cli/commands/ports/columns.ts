// The ports verbs' columns, shared by their definitions and run modules (and the port triggers).

export const PORT_COLUMNS = ['id', 'status', 'phoneNumbers', 'authorizedName', 'documents', 'focDate', 'rejectionReason', 'createdAt'];
export const PORT_LIST_COLUMNS = ['id', 'status', 'phoneNumbers', 'focDate', 'createdAt'];
