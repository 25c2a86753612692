// How much of a request's head (the request line and the headers together)
// the server reads: Node's default, set on the server explicitly so that the
// 431's description in the error catalogue (and the OpenAPI document) holds
// whatever node's --max-http-header-size says.
export const MAX_HEADER_BYTES = 16 * 1024;
