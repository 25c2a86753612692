// Generated from the OpenAPI document by `npm run api:types` (openapi-typescript); do not edit.

export interface paths {
    "/plants": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List plants
         * @description The store's plants in ascending id order, `limit` at a time. While more remain, the answer's Link header (RFC 8288) names the next page: `Link: </plants?limit=20&after=42>; rel="next"`. Unknown query parameters and repeated ones are refused with 400. Needs scope plants:read (plants:write includes it).
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Create a plant
         * @description Stores a new plant and answers it. Repeating an identical request answers the stored plant and changes nothing; the same id with another name or tag is a 409. Needs scope plants:write.
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identification number of the plant */
                id: bigint;
            };
            cookie?: never;
        };
        /**
         * Get a plant
         * @description The plant with this id. The id is written as a plain decimal integer (no leading zeros or +). Needs scope plants:read (plants:write includes it).
         */
        get: operations["getPlant"];
        put?: never;
        post?: never;
        /**
         * Delete a plant
         * @description Deletes the plant with this id. Needs scope plants:write.
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description A stored plant */
        Plant: {
            /**
             * Format: int64
             * @description Identification number of the plant
             */
            id: bigint;
            /** @description The name of the plant */
            name: string;
            /** @description Tag that specifies the type of the plant */
            tag?: string;
        };
        /** @description A plant to store. name and tag must not be only whitespace nor contain control characters; lengths count Unicode code points */
        NewPlant: {
            /**
             * Format: int64
             * @description Identification number of the plant
             */
            id: bigint;
            /** @description The name of the plant */
            name: string;
            /** @description Tag that specifies the type of the plant */
            tag?: string;
        };
        Error: {
            /**
             * Format: int32
             * @description Numeric error value: the HTTP status of the answer
             */
            error: number;
            /** @description Error message text, for a human */
            message: string;
            /** @description On a validation failure, each input that failed */
            details?: {
                /** @description The input that failed: a field's path, or (body), (query), (path) for the whole */
                field: string;
                /** @description What is wrong with it */
                message: string;
            }[];
        };
    };
    responses: {
        /** @description Bad Request: The request is malformed: the message says how, and `details` names each input that failed validation */
        BadRequest: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unauthorized: No bearer token, or one that is malformed, unknown, expired or revoked */
        Unauthorized: {
            headers: {
                /** @description The RFC 6750 challenge, e.g. Bearer realm="plant-store", error="invalid_token" */
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Forbidden: The bearer token lacks the scope this operation needs */
        Forbidden: {
            headers: {
                /** @description The RFC 6750 challenge, e.g. Bearer realm="plant-store", error="invalid_token" */
                "WWW-Authenticate": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Not Found: No plant has this id */
        NotFound: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Method Not Allowed: The path does not support the method; Allow lists the methods it does */
        MethodNotAllowed: {
            headers: {
                /** @description The methods the path supports */
                Allow: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Conflict: A plant with this id already exists with a different name or tag */
        Conflict: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Content Too Large: The request body is larger than 16384 bytes */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unsupported Media Type: The request body is not application/json in UTF-8 */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Too Many Requests: The token, or the address of a client without valid credentials, has used up its rate limit; wait as Retry-After says */
        TooManyRequests: {
            headers: {
                /** @description Seconds to wait before trying again */
                "Retry-After": string;
                /** @description The limit, as the IETF httpapi draft writes it, e.g. "api";q=6000;w=60 */
                "RateLimit-Policy": string;
                /** @description What is left of it and for how long, e.g. "api";r=0;t=42 */
                RateLimit: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Service Unavailable: The instance is not ready: starting, shutting down, or without its database */
        ServiceUnavailable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Internal Server Error: An unexpected error; X-Request-Id identifies it in the server log */
        InternalError: {
            headers: {
                /** @description The request's id in the server log */
                "X-Request-Id": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    listPlants: {
        parameters: {
            query?: {
                /** @description How many plants to answer at most */
                limit?: number;
                /** @description Answer only plants whose id is greater than this; the Link header's next URL sets it */
                after?: bigint;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of plants */
            200: {
                headers: {
                    /** @description RFC 8288 link to the next page (rel="next"), present while more plants remain */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    createPlant: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"];
            };
        };
        responses: {
            /** @description The stored plant */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            409: components["responses"]["Conflict"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    getPlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identification number of the plant */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The plant */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identification number of the plant */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Deleted; no body */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
        };
    };
}
