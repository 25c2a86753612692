// How much of a request body the API reads: the JSON body reader enforces it
// and the error catalogue (hence the OpenAPI document) states it.

export const MAX_BODY_BYTES = 16 * 1024;

// A 413 sent while the client is still uploading breaks its connection: Node's
// own client then loses the answer or the next request on that keep-alive
// socket. Reading and discarding up to this much lets the client read the 413
// and reuse the connection; past it, the connection is closed instead.
export const MAX_DISCARD_BYTES = 1024 * 1024;
