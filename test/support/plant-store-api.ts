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
         * List, find, count and export plants
         * @description The store's plants in ascending id order, `limit` at a time. While more remain, the answer's Link header (RFC 8288) names the next page: `Link: </plants?limit=20&after=42>; rel="next"`, keeping `tag` and `q`. `tag` keeps plants with exactly that tag; `q` keeps plants whose name contains the text, ignoring case (Unicode lowercase, the same on every database); together, plants matching both. An empty `tag=` or `q=` is refused (leave the parameter out to list every plant), as are unknown and repeated query parameters.
         *
         *     With `Prefer: count=exact` (RFC 7240) the answer carries the number of plants matching `tag` and `q`, on any page, in X-Total-Count, and `Preference-Applied: count=exact`; without it, nothing is counted.
         *
         *     With `Accept: text/csv` the answer is every matching plant as RFC 4180 CSV, streamed: a header row `id,name,tag`, CRLF after each record, ids as exact decimal integers, an empty tag cell for a plant without a tag. A name or tag that begins with =, +, - or @ (which a spreadsheet would run as a formula), or with ', is written with one ' in front; remove exactly that one to read it back. `after` resumes an export after the last id received; `limit` is refused with 400. The export is not a snapshot: plants changed while it runs may or may not be in it, but none appears twice. Errors are still JSON Error bodies. An Accept that allows neither application/json nor text/csv is answered 406. Needs scope plants:read (plants:write includes it).
         */
        get: operations["listPlants"];
        put?: never;
        /**
         * Create a plant
         * @description Stores a new plant and answers it. Repeating an identical request answers the stored plant and changes nothing, with `Idempotent-Replayed: true`, so a client that retries can tell it from a plant stored now; the same id with another name or tag is a 409. Needs scope plants:write.
         */
        post: operations["createPlant"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create many plants
         * @description Stores up to 1000 plants in one request, as a JSON array of NewPlants or as CSV, and answers one result per item in the batch's order. Each item is decided as a single create would decide it: stored, already stored (an identical plant: nothing written), a conflict (the id is taken by another plant) or invalid (with the details a single create would answer); of two items with one id, the first decides. The valid items are stored even when others fail, all in one transaction. Only a batch that cannot be read (not a list, too long, malformed CSV) is refused as a whole, and then nothing is stored. Needs scope plants:write.
         */
        post: operations["createPlants"];
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
         * @description Deletes the plant with this id; with If-Match, only if it is at a version named there. Needs scope plants:write.
         */
        delete: operations["deletePlant"];
        options?: never;
        head?: never;
        /**
         * Change a plant
         * @description Changes the plant's name or tag by a JSON Merge Patch (RFC 7396): a field present replaces the stored one, `"tag": null` removes the tag, a field absent stays. The plant that results must follow the same rules as a new one; an id, if sent, must be the plant's own, and unknown fields are refused. A patch that changes nothing answers the plant and writes nothing. To change only the version you read, send its ETag in If-Match: if someone changed the plant meanwhile, the answer is 412 with the current ETag, and nothing changes. Needs scope plants:write.
         */
        patch: operations["updatePlant"];
        trace?: never;
    };
    "/plants/{id}/history": {
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
         * A plant's history
         * @description Every change to the plant the app made, newest first, `limit` at a time: created (one by one, in a batch or an import), changed (the fields that changed, before and after), deleted (the plant whole, as it was) and restored, each with who made it (a person, or an API token and the person it belongs to) and the request's id. While older records remain, the Link header (RFC 8288) names the next page: `Link: </plants/42/history?limit=20&before=1234>; rel="next"`. A deleted plant's history answers too, ending with its delete; an id that was never a plant is 404. Writes made straight into the database by other programs are not recorded. Needs scope plants:read (plants:write includes it).
         */
        get: operations["getPlantHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/plants/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Follow the changes to plants as they happen
         * @description Server-Sent Events (text/event-stream): one event per change to a plant, from the API, the staff app, an import, a CLI or a restore, in commit order. Each has `id:` its position in the store's sequence of changes (an int64, growing in commit order with no gaps), `event:` plant.created, plant.updated or plant.deleted, and `data:` the JSON the webhooks carry for it, `{"type","timestamp","data"}`, ids exact above 2^53 (parse them as such). Without a position the stream starts at now. To resume, send the last id seen in Last-Event-ID (EventSource does so by itself) or as ?after=: every change after it is sent, then the stream goes on live, none missed or repeated, across restarts, workers and instances. A position older than the changes kept (CHANGE_FEED_RETENTION, 7 days by default) or past the newest is 410: re-read the plants, then follow from now. The stream sends `retry:` and a comment at least every 10 s; it ends within a second of its token being revoked or expiring, its session ending or its account being deactivated, when the server stops, and when the client reads too slowly (it resumes from its position when it comes back). Too many open streams for one token or address is 429. Needs scope plants:read (plants:write includes it).
         */
        get: operations["followPlantChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "plant.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant.created event
         * @description Sent to each enabled endpoint that asked for this event, at least once: retried on any answer but 2xx (on the documented schedule, or after Retry-After), never redirected; 410 Gone disables the endpoint. Verify the signature (Standard Webhooks), then read the body with a lossless JSON parser: ids are exact int64.
         */
        post: operations["webhook.plant.created"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "plant.updated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant.updated event
         * @description Sent to each enabled endpoint that asked for this event, at least once: retried on any answer but 2xx (on the documented schedule, or after Retry-After), never redirected; 410 Gone disables the endpoint. Verify the signature (Standard Webhooks), then read the body with a lossless JSON parser: ids are exact int64.
         */
        post: operations["webhook.plant.updated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "plant.deleted": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A plant.deleted event
         * @description Sent to each enabled endpoint that asked for this event, at least once: retried on any answer but 2xx (on the documented schedule, or after Retry-After), never redirected; 410 Gone disables the endpoint. Verify the signature (Standard Webhooks), then read the body with a lossless JSON parser: ids are exact int64.
         */
        post: operations["webhook.plant.deleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A test event an owner asked for
         * @description Sent to each enabled endpoint that asked for this event, at least once: retried on any answer but 2xx (on the documented schedule, or after Retry-After), never redirected; 410 Gone disables the endpoint. Verify the signature (Standard Webhooks), then read the body with a lossless JSON parser: ids are exact int64.
         */
        post: operations["webhook.webhook.test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
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
        /** @description A JSON Merge Patch (RFC 7396) of a plant: the fields to change; null removes the tag. The plant it makes must follow the NewPlant rules */
        PlantPatch: {
            /**
             * Format: int64
             * @description The plant's own id, if present: an id cannot change
             */
            id?: bigint;
            /** @description The name of the plant */
            name?: string;
            /** @description Tag that specifies the type of the plant; null removes it */
            tag?: string | null;
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
                /** @description The input that failed: a field's path, or (body), (query), (path) for the whole, and in a batch (item) or (row) */
                field: string;
                /** @description What is wrong with it */
                message: string;
            }[];
        };
        /** @description What became of one item of a batch */
        PlantBatchResult: {
            /**
             * Format: int32
             * @description The item's position in the batch, from 0
             */
            index: number;
            /**
             * Format: int32
             * @description CSV only: the line of the file where the item's row begins, the first line being 1 (the header's, as a rule)
             */
            line?: number;
            /**
             * @description stored: written by this request; already stored: the same plant was there, nothing written
             * @enum {string}
             */
            status: "stored" | "already stored";
            /** @description The plant as stored */
            plant: {
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
        } | {
            /**
             * Format: int32
             * @description The item's position in the batch, from 0
             */
            index: number;
            /**
             * Format: int32
             * @description CSV only: the line of the file where the item's row begins, the first line being 1 (the header's, as a rule)
             */
            line?: number;
            /**
             * @description conflict: another plant has this id; invalid: the item breaks a NewPlant rule. Nothing written
             * @enum {string}
             */
            status: "conflict" | "invalid";
            /** @description Why, as the single create would answer it: 409 for a conflict, 400 with details for an invalid item */
            error: {
                /**
                 * Format: int32
                 * @description Numeric error value: the HTTP status of the answer
                 */
                error: number;
                /** @description Error message text, for a human */
                message: string;
                /** @description On a validation failure, each input that failed */
                details?: {
                    /** @description The input that failed: a field's path, or (body), (query), (path) for the whole, and in a batch (item) or (row) */
                    field: string;
                    /** @description What is wrong with it */
                    message: string;
                }[];
            };
        };
        /** @description One change to a plant, as the activity record keeps it */
        PlantActivity: {
            /**
             * Format: int64
             * @description The record's id: a later record has a greater one
             */
            id: bigint;
            /** @description When the change was committed: an RFC 3339 date-time in UTC, to the millisecond */
            at: string;
            /** @enum {string} */
            action: "plant.created" | "plant.updated" | "plant.deleted" | "plant.restored";
            /** @description Who made the change */
            by: {
                /**
                 * @description A person in the staff app, an API token, the app itself, or an operator at the CLI
                 * @enum {string}
                 */
                kind: "person" | "token" | "app" | "cli";
                /** @description The person's name, the token's label, or the operator's OS user (empty when unknown), as they were then */
                name: string;
                /** @description The person's account, or the account the token belongs to */
                userId: string | null;
                tokenId: string | null;
            };
            /** @description The X-Request-Id of the request that made it, which leads to its log line */
            requestId: string | null;
            /** @description The plant's fields: all of them for a plant created, restored or deleted; for a change, only those it changed */
            before?: {
                /** Format: int64 */
                id?: bigint;
                name?: string;
                /** @description null: the plant had no tag */
                tag?: string | null;
            };
            /** @description The plant's fields: all of them for a plant created, restored or deleted; for a change, only those it changed */
            after?: {
                /** Format: int64 */
                id?: bigint;
                name?: string;
                /** @description null: the plant had no tag */
                tag?: string | null;
            };
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
        /** @description Unauthorized: No bearer token, or one that is malformed, unknown, expired or revoked, or whose account is deactivated (it works again once the account is reactivated); for the app's own pages, a staff session that has ended */
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
        /** @description Not Acceptable: The Accept header asks for none of the media types the operation answers with (application/json, and text/csv for the list) */
        NotAcceptable: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Request Timeout: The request's headers, or the whole request, did not arrive within the server's time limits; the connection is closed */
        RequestTimeout: {
            headers: {
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
        /** @description Gone: The change feed cannot resume from the position in Last-Event-ID or ?after=: changes that old are no longer kept (CHANGE_FEED_RETENTION), or the position is past the newest (another store's, or one restored from an older backup). Re-read the plants, then follow from now */
        Gone: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Precondition Failed: A condition of the request is false: If-Match names no current version of the plant (someone changed it meanwhile), or, on a change or delete, If-None-Match names the current one (or is `*`); nothing was changed */
        PreconditionFailed: {
            headers: {
                /** @description The plant's current version */
                ETag: string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Content Too Large: The request body is larger than 16384 bytes (2097152 for a batch) */
        PayloadTooLarge: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Unsupported Media Type: The request body is not application/json in UTF-8 (nor, for a batch, text/csv; nor, for a change, application/merge-patch+json: Accept-Patch lists what PATCH takes) */
        UnsupportedMediaType: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Expectation Failed: The Expect header asks for something other than 100-continue, the only expectation the server meets */
        ExpectationFailed: {
            headers: {
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description Request Header Fields Too Large: The request line and headers together are larger than the 16384 bytes the server reads; the connection is closed */
        HeaderFieldsTooLarge: {
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
        /** @description Service Unavailable: The database cannot be used just now: it cannot be reached, a connection to it was lost, or (SQLite) another process holds its write lock. When a connection was lost under a write, whether it was made is not known, and repeating it is safe. From /readyz: the instance is not ready (shutting down, without its database, or a migration pending) */
        ServiceUnavailable: {
            headers: {
                /** @description Seconds to wait before trying again: 1 */
                "Retry-After": string;
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description HTTP Version Not Supported: The request is not HTTP/1.0 or HTTP/1.1, the versions the server speaks (over TLS, a proxy in front may speak HTTP/2) */
        HttpVersionNotSupported: {
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
                /** @description How many plants to answer at most (JSON only: a CSV export answers every matching plant) */
                limit?: number;
                /** @description Answer only plants whose id is greater than this; the Link header's next URL sets it */
                after?: bigint;
                /** @description Only plants with exactly this tag (case and accents count) */
                tag?: string;
                /** @description Only plants whose name contains this text, ignoring case (Unicode lowercase: FERN finds Boston fern, ÉCOLE finds école); every character is literal, % and _ included */
                q?: string;
            };
            header?: {
                /**
                 * @description count=exact: answer the number of matching plants in X-Total-Count (RFC 7240). Other preferences are ignored
                 * @example count=exact
                 */
                Prefer?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of plants (JSON), or every matching plant (CSV) */
            200: {
                headers: {
                    /** @description RFC 8288 link to the next page (rel="next"), present while more plants remain (JSON only) */
                    Link?: string;
                    /** @description How many plants match tag and q, whatever the page; present only when Prefer asked for count=exact */
                    "X-Total-Count"?: bigint;
                    /** @description count=exact when X-Total-Count is given (RFC 7240) */
                    "Preference-Applied"?: string;
                    /** @description attachment; filename="plants.csv" (CSV only) */
                    "Content-Disposition"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"][];
                    /**
                     * @example id,name,tag
                     *     42,Boston fern,indoor
                     *     9007199254740993,"'=1+1, a formula",
                     */
                    "text/csv": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            406: components["responses"]["NotAcceptable"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
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
            /** @description The stored plant, whether stored now or already stored */
            200: {
                headers: {
                    /** @description The plant's version, a strong entity-tag: send it in If-Match to change or delete this very version, or in If-None-Match to get the plant only once it changed */
                    ETag: string;
                    /** @description true when an identical plant was already stored and nothing was written (a repeated request); absent when the plant was stored now */
                    "Idempotent-Replayed"?: "true";
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
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    createPlants: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPlant"][];
                /**
                 * @example id,name,tag
                 *     1,Monstera deliciosa,tropical
                 *     2,"Fern, Boston",
                 */
                "text/csv": string;
            };
        };
        responses: {
            /** @description One result per item, in the batch's order */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlantBatchResult"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act only if the plant is at one of these versions (ETags, comma-separated, compared strongly: weak ones never match), or `*` for any version; otherwise 412 with the current ETag, and nothing changes. Evaluated before If-None-Match; without either, the request acts on whatever version is current. */
                "If-Match"?: string;
                /** @description Act only if the plant is at none of these versions (ETags, comma-separated, compared weakly: W/ is ignored); `*` names any version. Otherwise a GET or HEAD answers 304 without a body, and a change or delete 412 with the current ETag, changing nothing. */
                "If-None-Match"?: string;
            };
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
                    /** @description The plant's version, a strong entity-tag: send it in If-Match to change or delete this very version, or in If-None-Match to get the plant only once it changed */
                    ETag: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Plant"];
                };
            };
            /** @description Not Modified: the plant is at a version If-None-Match names; no body */
            304: {
                headers: {
                    /** @description The plant's version, a strong entity-tag: send it in If-Match to change or delete this very version, or in If-None-Match to get the plant only once it changed */
                    ETag: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    deletePlant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act only if the plant is at one of these versions (ETags, comma-separated, compared strongly: weak ones never match), or `*` for any version; otherwise 412 with the current ETag, and nothing changes. Evaluated before If-None-Match; without either, the request acts on whatever version is current. */
                "If-Match"?: string;
                /** @description Act only if the plant is at none of these versions (ETags, comma-separated, compared weakly: W/ is ignored); `*` names any version. Otherwise a GET or HEAD answers 304 without a body, and a change or delete 412 with the current ETag, changing nothing. */
                "If-None-Match"?: string;
            };
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
            412: components["responses"]["PreconditionFailed"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    updatePlant: {
        parameters: {
            query?: never;
            header?: {
                /** @description Act only if the plant is at one of these versions (ETags, comma-separated, compared strongly: weak ones never match), or `*` for any version; otherwise 412 with the current ETag, and nothing changes. Evaluated before If-None-Match; without either, the request acts on whatever version is current. */
                "If-Match"?: string;
                /** @description Act only if the plant is at none of these versions (ETags, comma-separated, compared weakly: W/ is ignored); `*` names any version. Otherwise a GET or HEAD answers 304 without a body, and a change or delete 412 with the current ETag, changing nothing. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identification number of the plant */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/merge-patch+json": components["schemas"]["PlantPatch"];
                "application/json": components["schemas"]["PlantPatch"];
            };
        };
        responses: {
            /** @description The plant as it is now */
            200: {
                headers: {
                    /** @description The plant's version, a strong entity-tag: send it in If-Match to change or delete this very version, or in If-None-Match to get the plant only once it changed */
                    ETag: string;
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
            412: components["responses"]["PreconditionFailed"];
            413: components["responses"]["PayloadTooLarge"];
            415: components["responses"]["UnsupportedMediaType"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    getPlantHistory: {
        parameters: {
            query?: {
                /** @description How many records to answer at most */
                limit?: number;
                /** @description Answer only records older than the one with this id; the Link header's next URL sets it */
                before?: bigint;
            };
            header?: never;
            path: {
                /** @description Identification number of the plant */
                id: bigint;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the plant's records, newest first */
            200: {
                headers: {
                    /** @description RFC 8288 link to the next page (rel="next"), present while older records remain */
                    Link?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PlantActivity"][];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            404: components["responses"]["NotFound"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    followPlantChanges: {
        parameters: {
            query?: {
                /** @description Send every change after this position, then go on live; for clients that cannot send Last-Event-ID, which wins when both are sent */
                after?: bigint;
                /** @description Only changes to the plant with this id; repeat it (up to 100 times) to follow several */
                id?: bigint[];
                /** @description Only changes to plants with exactly this tag, before or after the change (a plant given another tag is seen leaving) */
                tag?: string;
            };
            header?: {
                /** @description The position to resume after: the id of the last event received */
                "Last-Event-ID"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stream of changes; it stays open */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example retry: 2000
                     *     : open
                     *
                     *     id: 42
                     *     event: plant.created
                     *     data: {"type":"plant.created","timestamp":"2026-11-29T09:20:00.000Z","data":{"id":9007199254740993,"name":"Monstera deliciosa","tag":"tropical"}}
                     */
                    "text/event-stream": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            403: components["responses"]["Forbidden"];
            406: components["responses"]["NotAcceptable"];
            410: components["responses"]["Gone"];
            429: components["responses"]["TooManyRequests"];
            500: components["responses"]["InternalError"];
            503: components["responses"]["ServiceUnavailable"];
        };
    };
    "webhook.plant.created": {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (msg_…), the same on every attempt and resend: receivers deduplicate by it */
                "webhook-id": string;
                /** @description When this attempt was signed, in Unix seconds: refuse one far from your clock (replays) */
                "webhook-timestamp": string;
                /** @description v1, then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's secret (its base64 part after whsec_); during a secret rotation, one such signature per secret, space-separated */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    type: "plant.created";
                    /**
                     * Format: date-time
                     * @description When the event happened (RFC 3339)
                     */
                    timestamp: string;
                    /** @description A stored plant */
                    data: {
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
                };
            };
        };
        responses: {
            /** @description Gone: the app disables this endpoint and sends it nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received; the delivery is done */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook.plant.updated": {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (msg_…), the same on every attempt and resend: receivers deduplicate by it */
                "webhook-id": string;
                /** @description When this attempt was signed, in Unix seconds: refuse one far from your clock (replays) */
                "webhook-timestamp": string;
                /** @description v1, then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's secret (its base64 part after whsec_); during a secret rotation, one such signature per secret, space-separated */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    type: "plant.updated";
                    /**
                     * Format: date-time
                     * @description When the event happened (RFC 3339)
                     */
                    timestamp: string;
                    /** @description A stored plant */
                    data: {
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
                };
            };
        };
        responses: {
            /** @description Gone: the app disables this endpoint and sends it nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received; the delivery is done */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook.plant.deleted": {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (msg_…), the same on every attempt and resend: receivers deduplicate by it */
                "webhook-id": string;
                /** @description When this attempt was signed, in Unix seconds: refuse one far from your clock (replays) */
                "webhook-timestamp": string;
                /** @description v1, then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's secret (its base64 part after whsec_); during a secret rotation, one such signature per secret, space-separated */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    type: "plant.deleted";
                    /**
                     * Format: date-time
                     * @description When the event happened (RFC 3339)
                     */
                    timestamp: string;
                    /** @description A stored plant */
                    data: {
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
                };
            };
        };
        responses: {
            /** @description Gone: the app disables this endpoint and sends it nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received; the delivery is done */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    "webhook.webhook.test": {
        parameters: {
            query?: never;
            header: {
                /** @description The event's id (msg_…), the same on every attempt and resend: receivers deduplicate by it */
                "webhook-id": string;
                /** @description When this attempt was signed, in Unix seconds: refuse one far from your clock (replays) */
                "webhook-timestamp": string;
                /** @description v1, then the base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<body>` under the endpoint's secret (its base64 part after whsec_); during a secret rotation, one such signature per secret, space-separated */
                "webhook-signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @constant */
                    type: "webhook.test";
                    /**
                     * Format: date-time
                     * @description When the event happened (RFC 3339)
                     */
                    timestamp: string;
                    data: {
                        endpointId: string;
                        message: string;
                    };
                };
            };
        };
        responses: {
            /** @description Gone: the app disables this endpoint and sends it nothing more */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Received; the delivery is done */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
