/* eslint-disable */
// Generated from schemas/openapi.json by libs/client/scripts/write-api-types.ts (npm run openapi). Do not edit.

export interface paths {
    "/api/analytics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Submissions by outcome, rejection reasons and vendors
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["analyticsOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/conversion-funnel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Submitted, valid, accepted, converted
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["conversionFunnel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/executive-summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This period against the previous one of the same length
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["executiveSummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/funnel/by-vendor": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Conversions of each linked vendor pair
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["funnelByVendor"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/funnel/daily": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inquiries, applications and conversions per day (UTC)
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["funnelDaily"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/funnel/drop-offs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inquiries at least minAgeHours old that did not convert, by vendor and age
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["funnelDropOffs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/funnel/overview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Inquiries, applications, conversions and the average time to convert
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["funnelOverview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/funnel/time-to-convert": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * How long conversions took, in buckets, with the median
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["funnelTimeToConvert"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/lead-volume-trend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Submissions by outcome per day, week or month
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["leadVolumeTrend"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/source-performance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Submissions by outcome per source, UTM field, program or vendor
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["sourcePerformance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/analytics/vendor-roi": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Each vendor's spend (cost per lead × accepted leads) against its conversions
         * @description Permission: `analytics:read`.
         *
         *     Beyond this schema the service checks that startDate and endDate are dates or date-times, that startDate is before endDate, and that the period is at most 731 days; a request that fails those checks is answered 400.
         */
        get: operations["vendorRoi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * API keys (without their secret)
         * @description Permission: `api_keys:read`.
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create a vendor API key (the key is shown once); permissions default to read and write
         * @description Permission: `api_keys:write`.
         *
         *     Beyond this schema the service checks that each IP restriction is an IPv4 or IPv6 address or CIDR range, and that vendor_id names a vendor of the organization; a request that fails those checks is answered 400.
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/api-keys/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a key
         * @description Permission: `api_keys:write`.
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        /**
         * Rename, enable or disable a key, change its permissions or IP restrictions
         * @description Permission: `api_keys:write`.
         *
         *     Beyond this schema the service checks that each IP restriction is an IPv4 or IPv6 address or CIDR range; a request that fails those checks is answered 400.
         */
        patch: operations["updateApiKey"];
        trace?: never;
    };
    "/api/api-keys/{id}/rotate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * A new key; the old one stays valid for 24 hours
         * @description Permission: `api_keys:write`.
         */
        post: operations["rotateApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/accept-invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation: set a password and sign in
         * @description Beyond this schema the service checks that the token is an invitation still valid (400 INVALID_RESET_TOKEN otherwise); a request that fails those checks is answered 400.
         */
        post: operations["acceptInvite"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/change-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change your password: every earlier session ends, and the answer carries a new session for this client
         * @description Beyond this schema the service checks that current_password is the password of the signed-in user (400 VALIDATION_ERROR on current_password otherwise) and that new_password differs from it; a request that fails those checks is answered 400.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/forgot-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a password reset link (always succeeds) */
        post: operations["forgotPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Log in */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** End the current session */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new session token for the current one */
        post: operations["refreshSession"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a user and a new organization (the user is its owner) */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with a reset token
         * @description Beyond this schema the service checks that the token is a reset token still valid (400 INVALID_RESET_TOKEN otherwise); a request that fails those checks is answered 400.
         */
        post: operations["resetPassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every calculated field
         * @description Permission: `rules:read`.
         */
        get: operations["listCalculatedFields"];
        put?: never;
        /**
         * Create a calculated field
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks the formula's grammar, its limits (2,000 characters, conditionals nested 5 levels, 3 lookups), the fields and lookup tables it names, and dependency cycles; a request that fails those checks is answered 400.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: calculated fields per organization: 100 on the education plan, 500 on the enterprise plan.
         */
        post: operations["createCalculatedField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One calculated field
         * @description Permission: `rules:read`.
         */
        get: operations["getCalculatedField"];
        put?: never;
        post?: never;
        /**
         * Delete a calculated field
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteCalculatedField"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a calculated field
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks the formula's grammar, its limits (2,000 characters, conditionals nested 5 levels, 3 lookups), the fields and lookup tables it names, and dependency cycles; a request that fails those checks is answered 400.
         */
        patch: operations["updateCalculatedField"];
        trace?: never;
    };
    "/api/calculated-fields/{id}/recalculate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recompute one field on every lead (a background job)
         * @description Permission: `rules:write`.
         */
        post: operations["recalculateField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields/{id}/snapshot": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Store a lead's current value of the field in its activity log
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that lead_id names a lead of the organization; a request that fails those checks is answered 400.
         */
        post: operations["snapshotCalculatedField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields/jobs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent recalculation jobs
         * @description Permission: `rules:read`.
         */
        get: operations["listCalculationJobs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields/jobs/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One recalculation job
         * @description Permission: `rules:read`.
         */
        get: operations["getCalculationJob"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/calculated-fields/recalculate-all": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Recompute every calculated field on every lead (a background job)
         * @description Permission: `rules:write`.
         */
        post: operations["recalculateAllFields"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/caps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's volume caps, oldest first
         * @description Permission: `caps:read`.
         */
        get: operations["listCaps"];
        put?: never;
        /**
         * Make a volume cap (1 day in the organization time zone or UTC, reason cap_reached, enabled, by default)
         * @description Permission: `caps:write`.
         *
         *     Beyond this schema the service checks that time_zone is an IANA time zone, that vendor_id names a vendor of the organization (required with scope vendor, null with scope organization), and each condition's field path and operator (as enrichment rules'); a request that fails those checks is answered 400.
         */
        post: operations["createCap"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/caps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A volume cap
         * @description Permission: `caps:read`.
         */
        get: operations["getCap"];
        put?: never;
        post?: never;
        /**
         * Delete a volume cap
         * @description Permission: `caps:write`.
         */
        delete: operations["deleteCap"];
        options?: never;
        head?: never;
        /**
         * Change any of a cap's fields (the counts of the current period stay)
         * @description Permission: `caps:write`.
         *
         *     Beyond this schema the service checks that time_zone is an IANA time zone, that vendor_id names a vendor of the organization (required with scope vendor, null with scope organization), and each condition's field path and operator (as enrichment rules'); a request that fails those checks is answered 400.
         */
        patch: operations["updateCap"];
        trace?: never;
    };
    "/api/caps/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The cap's current period (in its time zone) and how many live leads it has counted
         * @description Permission: `caps:read`.
         */
        get: operations["capUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/crm/{id}/sync/{leadId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sync one lead to the connection again (an upsert); the crm-sync stage makes the call, with retries
         * @description Permission: `crm:write`.
         */
        post: operations["syncLeadToCrm"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/crm/connections": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * CRM connections (settings, never credentials)
         * @description Permission: `crm:read`.
         */
        get: operations["listCrmConnections"];
        put?: never;
        /**
         * Add a CRM connection (credentials are stored encrypted and never shown again)
         * @description Permission: `crm:write`.
         *
         *     Beyond this schema the service checks the settings and credentials each type needs (docs/crm.md): URLs, header names, a Salesforce external-id field ending in __c, a refresh token with the refresh_token grant, and field mappings from CRM field names to lead fields; a request that fails those checks is answered 400.
         */
        post: operations["createCrmConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/crm/connections/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a CRM connection
         * @description Permission: `crm:write`.
         */
        delete: operations["deleteCrmConnection"];
        options?: never;
        head?: never;
        /**
         * Change a connection's name, enabled, settings or credentials (settings and credentials are replaced whole; the id and type stay)
         * @description Permission: `crm:write`.
         *
         *     Beyond this schema the service checks the settings and credentials each type needs (docs/crm.md): URLs, header names, a Salesforce external-id field ending in __c, a refresh token with the refresh_token grant, and field mappings from CRM field names to lead fields; that the type stays as it is; and that credentials kept from before suit new settings (new settings of a connection whose stored credentials no longer decrypt need new credentials); a request that fails those checks is answered 400.
         */
        patch: operations["updateCrmConnection"];
        trace?: never;
    };
    "/api/crm/connections/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Call the CRM with the connection (token, then a read; nothing is written) and report its answer
         * @description Permission: `crm:write`.
         */
        post: operations["testCrmConnection"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dedup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The deduplication configuration
         * @description Permission: `dedup:read`.
         */
        get: operations["getDedupConfig"];
        put?: never;
        /**
         * Change the deduplication configuration
         * @description Permission: `dedup:write`.
         *
         *     Beyond this schema the service checks the match fields and their algorithms, and weights that sum to 1 when the combination is weighted (with the current settings for what the body leaves out); a request that fails those checks is answered 400.
         */
        post: operations["updateDedupConfig"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dedup/check-duplicate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Would this lead be a duplicate?
         * @description Permission: `leads:read`.
         *
         *     Beyond this schema the service checks that the body names an email, a phone, or a first and last name; a request that fails those checks is answered 400.
         */
        post: operations["checkDuplicate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/dedup/log": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recent deduplication decisions
         * @description Permission: `dedup:read`.
         */
        get: operations["dedupLog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/custom-fields": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Custom field definitions
         * @description Permission: `rules:read`.
         */
        get: operations["listCustomFields"];
        put?: never;
        /**
         * Define a custom field
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that the validation settings suit the type (a valid RE2 pattern, consistent bounds) and that the default value passes them; a request that fails those checks is answered 400.
         */
        post: operations["createCustomField"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/custom-fields/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom field definition
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteCustomField"];
        options?: never;
        head?: never;
        /**
         * Change a custom field definition
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that name and type stay as they are, that the validation settings suit the type (a valid RE2 pattern, consistent bounds) and that the default value passes them; a request that fails those checks is answered 400.
         */
        patch: operations["updateCustomField"];
        trace?: never;
    };
    "/api/enrichment/lookup-tables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every lookup table
         * @description Permission: `rules:read`.
         */
        get: operations["listLookupTables"];
        put?: never;
        /**
         * Create a lookup table
         * @description Permission: `rules:write`.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: lookup tables per organization: 20 on the education plan, 100 on the enterprise plan; and mappings per table: 5,000 on the education plan, 10,000 on the enterprise plan.
         */
        post: operations["createLookupTable"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/lookup-tables/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One lookup table
         * @description Permission: `rules:read`.
         */
        get: operations["getLookupTable"];
        put?: never;
        post?: never;
        /**
         * Delete a lookup table
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteLookupTable"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a lookup table
         * @description Permission: `rules:write`.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: mappings per table (when the request replaces them): 5,000 on the education plan, 10,000 on the enterprise plan.
         */
        patch: operations["updateLookupTable"];
        trace?: never;
    };
    "/api/enrichment/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Enrichment rules in priority order
         * @description Permission: `rules:read`.
         */
        get: operations["listEnrichmentRules"];
        put?: never;
        /**
         * Create an enrichment rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks each condition's field path and operator, each action's fields, formulas and lookup tables; a request that fails those checks is answered 400.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: enrichment rules per organization: 300 on the education plan, 1,000 on the enterprise plan.
         */
        post: operations["createEnrichmentRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One rule with its match statistics
         * @description Permission: `rules:read`.
         */
        get: operations["getEnrichmentRule"];
        put?: never;
        post?: never;
        /**
         * Delete a rule (permanent)
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteEnrichmentRule"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks each condition's field path and operator, each action's fields, formulas and lookup tables; a request that fails those checks is answered 400.
         */
        patch: operations["updateEnrichmentRule"];
        trace?: never;
    };
    "/api/enrichment/rules/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * All rules as a document that import takes
         * @description Permission: `rules:read`.
         */
        get: operations["exportEnrichmentRules"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/rules/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add the rules of an exported document (existing rules are kept)
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks every rule as on creation: each condition's field path and operator, each action's fields, formulas and lookup tables; a request that fails those checks is answered 400.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: enrichment rules per organization: 300 on the education plan, 1,000 on the enterprise plan (the rules there and the document's together; none is added when they pass it).
         */
        post: operations["importEnrichmentRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/rules/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the priorities of several rules at once
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that no rule id is listed twice; a request that fails those checks is answered 400.
         */
        post: operations["reorderEnrichmentRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/enrichment/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the rules on a lead without storing anything
         * @description Permission: `rules:read`.
         */
        post: operations["testEnrichmentRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{export_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export and its progress
         * @description Permission: `leads:read`.
         */
        get: operations["getExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/exports/{export_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A finished export's file
         * @description Permission: `leads:read`.
         */
        get: operations["downloadExportUnderApi"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Leads, filtered, sorted and paged
         * @description Permission: `leads:read`.
         *
         *     Beyond this schema the service checks that start_date and end_date are ISO 8601 dates or date-times, start_date before end_date; a request that fails those checks is answered 400.
         */
        get: operations["listLeads"];
        put?: never;
        /**
         * Create a lead (it goes through the same pipeline as a vendor submission)
         * @description Permission: `leads:write`.
         *
         *     Beyond this schema the service checks the email (syntax, MX record, disposable domains), the phone (a real number of its country), the organization's required fields, validation rules and custom field definitions, and bot signals (honeypot, form timing, high-risk addresses), and that vendor_id names a vendor of the organization; a request that fails those checks is answered 400 (422 when a rule rejects the lead).
         */
        post: operations["createLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One lead
         * @description A lead whose creation was answered 202 is 409 `LEAD_PROCESSING` until the pipeline has decided it (follow its `status_url`).
         *
         *     Permission: `leads:read`.
         */
        get: operations["getLead"];
        put?: never;
        post?: never;
        /**
         * Delete a lead (soft delete)
         * @description A lead whose creation was answered 202 is 409 `LEAD_PROCESSING` until the pipeline has decided it (follow its `status_url`).
         *
         *     Permission: `leads:write`.
         */
        delete: operations["deleteLead"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a lead
         * @description Permission: `leads:write`.
         *
         *     Beyond this schema the service checks the email's syntax, the phone (a real number of its country) and custom field definitions; a request that fails those checks is answered 400.
         */
        patch: operations["updateLead"];
        trace?: never;
    };
    "/api/leads/{id}/activity": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A lead's activity timeline
         * @description A lead whose creation was answered 202 is 409 `LEAD_PROCESSING` until the pipeline has decided it (follow its `status_url`).
         *
         *     Permission: `leads:read`.
         */
        get: operations["leadActivity"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{id}/consent": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A lead's consent evidence, its SHA-256 and whether it still matches (tamper check)
         * @description The evidence as received with the submission, its canonical JSON (keys sorted, no white space), the SHA-256 of that JSON and when it was received. `matches` recomputes the hash: false means the stored evidence changed after it was received. All null when the submission carried no consent, or after an erasure. A deleted lead keeps its evidence for the organization's `consent_retention_days` (docs/consent.md).
         *
         *     Permission: `leads:read`.
         */
        get: operations["getLeadConsent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{id}/erase": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Erase the person's data from a lead, its activity, the dedup log and undownloaded exports (owner, admin)
         * @description The lead stays as a tombstone (status, vendor, source, program, UTM fields and times), so reports keep their counts; its email, names, phone, IP address, user agent, pages, custom fields, enrichment data and consent evidence go. Its activity entries lose their metadata, its dedup log entry the person's email and names, and every export still downloadable loses the lead's row. Emits lead.erased, on which the analytics projection drops the lead's email key and personal fields. With `suppress_list_id`, the lead's email (or phone, or email domain: the list's kind) goes onto that suppression list first. A deleted lead can be erased too; erasing again changes nothing (docs/consent.md).
         *
         *     Permission: `leads:erase`.
         *
         *     Beyond this schema the service checks that suppress_list_id names a suppression list of the organization; a request that fails those checks is answered 400.
         */
        post: operations["eraseLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{id}/suppress": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Do not contact: put the lead's email, phone or email domain (the list's kind) on a list
         * @description Permission: `suppression:write`.
         *
         *     Beyond this schema the service checks that the lead has a value of the list's kind (a phone for a phone list); a request that fails those checks is answered 400.
         */
        post: operations["suppressLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{id}/timeline": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The stages a lead passed, in order, with each stage's times and outcome (docs/timeline.md)
         * @description A lead whose creation was answered 202 is 409 `LEAD_PROCESSING` until the pipeline has decided it (follow its `status_url`).
         *
         *     Permission: `leads:read`.
         */
        get: operations["leadTimeline"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/{lead_id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A submitted lead's processing status */
        get: operations["leadProcessingStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/bulk-delete": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Delete up to 100 leads
         * @description Permission: `leads:write`.
         */
        post: operations["bulkDeleteLeads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/bulk-update": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply one change to up to 100 leads
         * @description Permission: `leads:write`.
         *
         *     Beyond this schema the service checks the phone (a real number of its country) and custom field definitions; a request that fails those checks is answered 400.
         */
        post: operations["bulkUpdateLeads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start an export of the leads matching the filters
         * @description Permission: `leads:read`.
         *
         *     Beyond this schema the service checks that start_date and end_date are ISO 8601 dates or date-times, and that no field is listed twice; a request that fails those checks is answered 400.
         */
        post: operations["exportLeads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/inbound": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit one lead
         * @description Beyond this schema the service checks the email (syntax, MX record, disposable domains), the phone (a real number of its country), the organization's required fields, validation rules and custom field definitions, and bot signals (honeypot, form timing, high-risk addresses); a request that fails those checks is answered 400 (422 when a rule rejects the lead).
         */
        post: operations["submitLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/leads/inbound/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit up to 100 leads */
        post: operations["submitLeadBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * OAuth clients of the organization
         * @description Permission: `oauth_clients:read`.
         */
        get: operations["listOAuthClients"];
        put?: never;
        /**
         * Register an OAuth client (the secret is shown once)
         * @description Permission: `oauth_clients:write`.
         */
        post: operations["createOAuthClient"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/clients/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete an OAuth client and revoke its tokens
         * @description Permission: `oauth_clients:write`.
         */
        delete: operations["deleteOAuthClient"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The token endpoint under /api */
        post: operations["oauthTokenUnderApi"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** This document (the page at /docs renders it) */
        get: operations["openApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization and its settings
         * @description Permission: `organization:read`.
         */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        /**
         * Delete the organization and everything in it (owner only)
         * @description Permission: `organization:delete`.
         */
        delete: operations["deleteOrganization"];
        options?: never;
        head?: never;
        /**
         * Rename the organization or change its validation, consent and review settings
         * @description Permission: `organization:write`.
         *
         *     Beyond this schema the service checks that high_risk_ips are IP addresses or CIDR ranges, that flag_below_ms is not below reject_below_ms, and that auto_decision is set when auto_decision_after_hours is (with the current settings for what the body leaves out); a request that fails those checks is answered 400.
         */
        patch: operations["updateOrganization"];
        trace?: never;
    };
    "/api/reprocess": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Apply the current enrichment and routing rules to leads already received
         * @description Answered 202 with the job (`reproc_…`); poll `GET /api/reprocess/{id}`. `filter` takes the filters of the lead export. A dry run changes nothing and reports what would change (counts per field and up to 100 differences); a real run writes only what changed, with `lead.updated` and a `lead.reprocessed` activity entry per changed lead, and syncs to the CRM only leads whose routing target changed (stage `crm-sync`, which needs `route`).
         *
         *     Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that start_date and end_date are ISO 8601 dates or date-times, and that crm-sync comes with route; a request that fails those checks is answered 400.
         */
        post: operations["startReprocessing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reprocess/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A reprocessing job's progress, and a dry run's differences
         * @description Permission: `leads:read`.
         */
        get: operations["getReprocessing"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/reprocess/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a queued or running reprocessing job
         * @description The job stops after the batch in progress (leads written before stay written) and becomes `cancelled`. A job that has ended is answered as it is.
         *
         *     Permission: `rules:write`.
         */
        post: operations["cancelReprocessing"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/review-queue": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Leads flagged for manual review and waiting for a decision, oldest first
         * @description Each lead comes with its flags and each flag in words. `meta.counts` has the waiting leads per flag kind (under the other filters); a lead waiting longer than the organization's `review_sla_hours` is `overdue`.
         *
         *     Permission: `leads:read`.
         *
         *     Beyond this schema the service checks that start_date and end_date are ISO 8601 dates or date-times; a request that fails those checks is answered 400.
         */
        get: operations["listReviewQueue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/review-queue/{lead_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a lead waiting for review
         * @description Answered 202: the decision is handed to the pipeline, which applies it within moments. Approve: the lead goes on where it stopped (routing, CRM sync, webhooks, analytics). Reject: the lead becomes `rejected` with the reason and `lead.rejected` is sent. Both emit `lead.reviewed` and appear in the lead's activity with who decided. A lead not waiting for review is 409 `LEAD_NOT_IN_REVIEW`.
         *
         *     Permission: `leads:write`.
         */
        post: operations["approveReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/review-queue/{lead_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a lead waiting for review, with the reason
         * @description Answered 202: the decision is handed to the pipeline, which applies it within moments. Approve: the lead goes on where it stopped (routing, CRM sync, webhooks, analytics). Reject: the lead becomes `rejected` with the reason and `lead.rejected` is sent. Both emit `lead.reviewed` and appear in the lead's activity with who decided. A lead not waiting for review is 409 `LEAD_NOT_IN_REVIEW`.
         *
         *     Permission: `leads:write`.
         */
        post: operations["rejectReview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/review-queue/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or reject up to 100 waiting leads
         * @description Answered 202: the decision is handed to the pipeline, which applies it within moments. Approve: the lead goes on where it stopped (routing, CRM sync, webhooks, analytics). Reject: the lead becomes `rejected` with the reason and `lead.rejected` is sent. Both emit `lead.reviewed` and appear in the lead's activity with who decided. A lead not waiting for review is 409 `LEAD_NOT_IN_REVIEW`. Each id reports its own outcome, like the bulk operations on leads.
         *
         *     Permission: `leads:write`.
         *
         *     Beyond this schema the service checks that a rejection has a reason; a request that fails those checks is answered 400.
         */
        post: operations["decideReviews"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/routing/rules": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Routing rules in the order they are tried
         * @description Permission: `rules:read`.
         */
        get: operations["listRoutingRules"];
        put?: never;
        /**
         * Create a routing rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks each condition's field path and operator (as enrichment rules'), that targets fit the distribution (one for single, each connection once for all, a weight on every target for weighted only) and that each connection_id is a CRM connection of the organization; a request that fails those checks is answered 400.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: routing rules per organization: 200 on the education plan, 1,000 on the enterprise plan.
         */
        post: operations["createRoutingRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/routing/rules/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One routing rule
         * @description Permission: `rules:read`.
         */
        get: operations["getRoutingRule"];
        put?: never;
        post?: never;
        /**
         * Delete a routing rule (permanent)
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteRoutingRule"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a routing rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks each condition's field path and operator (as enrichment rules'), that targets fit the distribution (one for single, each connection once for all, a weight on every target for weighted only) and that each connection_id is a CRM connection of the organization; a request that fails those checks is answered 400.
         */
        patch: operations["updateRoutingRule"];
        trace?: never;
    };
    "/api/routing/rules/reorder": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set the priorities of several routing rules at once
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that no rule id is listed twice; a request that fails those checks is answered 400.
         */
        post: operations["reorderRoutingRules"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/routing/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where leads no rule matches go
         * @description Permission: `rules:read`.
         */
        get: operations["getRoutingSettings"];
        /**
         * Set where leads no rule matches go (fields left out take their defaults)
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that each connection_id is a CRM connection of the organization, listed once; a request that fails those checks is answered 400.
         */
        put: operations["setRoutingSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/routing/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Which rule and targets a lead would get, without storing anything
         * @description Permission: `rules:read`.
         */
        post: operations["testRouting"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppression-lists": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's suppression lists, oldest first
         * @description Permission: `suppression:read`.
         */
        get: operations["listSuppressionLists"];
        put?: never;
        /**
         * Make a suppression list (action reject by default, entries kept for ever unless expires_after_days)
         * @description Permission: `suppression:write`.
         */
        post: operations["createSuppressionList"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppression-lists/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A suppression list with its entry count
         * @description Permission: `suppression:read`.
         */
        get: operations["getSuppressionList"];
        put?: never;
        post?: never;
        /**
         * Delete a suppression list and its entries
         * @description Permission: `suppression:write`.
         */
        delete: operations["deleteSuppressionList"];
        options?: never;
        head?: never;
        /**
         * Change a list's name, action, expiry, sandbox_only or enabled (its kind stays)
         * @description Permission: `suppression:write`.
         */
        patch: operations["updateSuppressionList"];
        trace?: never;
    };
    "/api/suppression-lists/{id}/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Add up to 10,000 values (stored only as SHA-256 of the normalized value)
         * @description Permission: `suppression:write`.
         *
         *     Beyond this schema the service checks that each value is one of the list's kind (an email address, a phone number of 7 digits or more, a domain name) or, with `hashed`, a SHA-256 in 64 hexadecimal characters; a request that fails those checks is answered 400.
         */
        post: operations["addSuppressionEntries"];
        /**
         * Take up to 10,000 values off the list
         * @description Permission: `suppression:write`.
         *
         *     Beyond this schema the service checks that each value is one of the list's kind (an email address, a phone number of 7 digits or more, a domain name) or, with `hashed`, a SHA-256 in 64 hexadecimal characters; a request that fails those checks is answered 400.
         */
        delete: operations["removeSuppressionEntries"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppression-lists/{id}/entries/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether a value is on the list now, since when and until when
         * @description Permission: `suppression:read`.
         */
        get: operations["checkSuppressionValue"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppression-lists/{id}/entries/import": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a CSV file of one column (a header row is allowed), up to 1,000,000 rows, as a job
         * @description The file is streamed; the answer is the job, polled at its `status_url`. Rows that are no value of the list are counted as `invalid` and skipped.
         *
         *     Permission: `suppression:write`.
         */
        post: operations["importSuppressionEntries"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/suppression-lists/{id}/entries/import/{job_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import job: status, rows read, entries added, invalid rows
         * @description Permission: `suppression:read`.
         */
        get: operations["getSuppressionImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Users of the organization
         * @description Permission: `users:read`.
         */
        get: operations["listUsers"];
        put?: never;
        /**
         * Add a user with a password
         * @description Permission: `users:write`.
         */
        post: operations["createUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/users/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One user
         * @description Permission: `users:read`.
         */
        get: operations["getUser"];
        put?: never;
        post?: never;
        /**
         * Remove a user
         * @description Permission: `users:write`.
         */
        delete: operations["deleteUser"];
        options?: never;
        head?: never;
        /**
         * Change a user's name or role
         * @description Permission: `users:write`.
         *
         *     Beyond this schema the service checks that the body changes at least one of first_name, last_name and role (null leaves a field as it is); a request that fails those checks is answered 400.
         */
        patch: operations["updateUser"];
        trace?: never;
    };
    "/api/users/invite": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Invite a user by email
         * @description Permission: `users:write`.
         */
        post: operations["inviteUser"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/leads/bulk-ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Submit up to 100 leads (versioned path) */
        post: operations["bulkIngestLeads"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/leads/ingest": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Submit one lead (versioned path)
         * @description Beyond this schema the service checks the email (syntax, MX record, disposable domains), the phone (a real number of its country), the organization's required fields, validation rules and custom field definitions, and bot signals (honeypot, form timing, high-risk addresses); a request that fails those checks is answered 400 (422 when a rule rejects the lead).
         */
        post: operations["ingestLead"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/validation": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every validation rule
         * @description Permission: `rules:read`.
         */
        get: operations["listValidationRules"];
        put?: never;
        /**
         * Create a validation rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that the condition and value suit the rule type (a valid RE2 pattern, bounds, lists), and transform only with the transform action; a request that fails those checks is answered 400.
         *
         *     A request that would take the organization past its plan's limit is answered 422 `PLAN_LIMIT_REACHED` and stores nothing. Limits: validation rules per organization: 200 on the education plan, 1,000 on the enterprise plan.
         */
        post: operations["createValidationRule"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/validation/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One validation rule
         * @description Permission: `rules:read`.
         */
        get: operations["getValidationRule"];
        put?: never;
        post?: never;
        /**
         * Delete a validation rule
         * @description Permission: `rules:write`.
         */
        delete: operations["deleteValidationRule"];
        options?: never;
        head?: never;
        /**
         * Change some fields of a validation rule
         * @description Permission: `rules:write`.
         *
         *     Beyond this schema the service checks that the condition and value suit the rule type (a valid RE2 pattern, bounds, lists), and transform only with the transform action; a request that fails those checks is answered 400.
         */
        patch: operations["updateValidationRule"];
        trace?: never;
    };
    "/api/validation/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run the validation rules on lead fields without storing anything
         * @description Permission: `rules:read`.
         */
        post: operations["checkValidation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-funnel-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Funnel links with the vendor names (an API key sees those of its vendor)
         * @description Permission: `analytics:read`.
         */
        get: operations["listFunnelLinks"];
        put?: never;
        /**
         * Link an inquiry vendor to an application vendor
         * @description Permission: `vendors:write`.
         *
         *     Beyond this schema the service checks that both vendors exist with the right types (404, 400), that the pair is not linked already (400), and that an API key links its own vendor (403); a request that fails those checks is answered 400.
         */
        post: operations["createFunnelLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-funnel-links/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a funnel link
         * @description Permission: `vendors:write`.
         */
        delete: operations["deleteFunnelLink"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-funnel-links/has-links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether any funnel link exists
         * @description Permission: `analytics:read`.
         */
        get: operations["hasFunnelLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-portal/caps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caps on the calling vendor and what is left of each in its current period */
        get: operations["vendorCaps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-portal/daily-stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The vendor's submissions of one day (today by default) */
        get: operations["vendorDailyStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-portal/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The vendor's submissions as CSV
         * @description Beyond this schema the service checks that start_date is not after end_date; a request that fails those checks is answered 400.
         */
        get: operations["vendorExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-portal/leads/{lead_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A submitted lead's processing status */
        get: operations["vendorPortalLead"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendor-portal/summary/{year}/{month}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The vendor's submissions of one month */
        get: operations["vendorMonthlySummary"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Vendors
         * @description Permission: `vendors:read`.
         */
        get: operations["listVendors"];
        put?: never;
        /**
         * Add a vendor
         * @description Permission: `vendors:write`.
         */
        post: operations["createVendor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendors/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One vendor
         * @description Permission: `vendors:read`.
         */
        get: operations["getVendor"];
        /**
         * Replace a vendor (absent optional fields become null)
         * @description Permission: `vendors:write`.
         */
        put: operations["replaceVendor"];
        post?: never;
        /**
         * Delete a vendor
         * @description Permission: `vendors:write`.
         */
        delete: operations["deleteVendor"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendors/{id}/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Refuse the vendor's leads
         * @description Permission: `vendors:write`.
         */
        post: operations["disableVendor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/vendors/{id}/enable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept the vendor's leads again
         * @description Permission: `vendors:write`.
         */
        post: operations["enableVendor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Webhooks of both environments, with their masked secret, stats and last_triggered_at
         * @description Permission: `webhooks:read`.
         */
        get: operations["listWebhooks"];
        put?: never;
        /**
         * Subscribe an https URL to events (the only answer that holds the full signing secret)
         * @description Permission: `webhooks:write`.
         *
         *     Beyond this schema the service checks that the URL uses https and its host resolves to public addresses (both relaxed by WEBHOOK_ALLOW_INSECURE_TARGETS); a request that fails those checks is answered 400.
         */
        post: operations["createWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a webhook and its deliveries
         * @description Permission: `webhooks:write`.
         */
        delete: operations["deleteWebhook"];
        options?: never;
        head?: never;
        /**
         * Change the URL, the events or whether the webhook is enabled
         * @description Permission: `webhooks:write`.
         *
         *     Beyond this schema the service checks that the URL uses https and its host resolves to public addresses (both relaxed by WEBHOOK_ALLOW_INSECURE_TARGETS); a request that fails those checks is answered 400.
         */
        patch: operations["updateWebhook"];
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Deliveries of a webhook, newest first
         * @description Permission: `webhooks:read`.
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/deliveries/{delivery_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a delivery again now (one attempt, made by the deliver stage)
         * @description Permission: `webhooks:write`.
         */
        post: operations["resendWebhookDelivery"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/webhooks/{id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send a signed evt_test_ event now and report the outcome
         * @description Permission: `webhooks:write`.
         */
        post: operations["testWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/exports/{export_id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A finished export's file (the address outside /api that download_url names)
         * @description Permission: `leads:read`.
         */
        get: operations["downloadExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/oauth/token": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Exchange an authorization code or a refresh token for tokens (RFC 6749) */
        post: operations["oauthToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        ActivityEntry: {
            description?: string;
            event: string;
            id: string;
            metadata?: Record<string, never>;
            /** Format: date-time */
            timestamp: string;
        };
        AnalyticsOverview: {
            byStatus: {
                count: number;
                status: string;
            }[];
            byVendor: (components["schemas"]["OutcomeCounts"] & {
                vendorId: string | null;
                vendorName: string | null;
            })[];
            period: components["schemas"]["FunnelPeriod"];
            rejectionReasons: {
                count: number;
                reason: string;
            }[];
            totals: components["schemas"]["OutcomeCounts"];
        };
        /** @description Any JSON value, with the limits above. */
        AnyJson: (number | boolean | null) | string | components["schemas"]["AnyJson2"][] | {
            [key: string]: components["schemas"]["AnyJson2"];
        };
        AnyJson2: (number | boolean | null) | string | components["schemas"]["AnyJson3"][] | {
            [key: string]: components["schemas"]["AnyJson3"];
        };
        AnyJson3: (number | boolean | null) | string | components["schemas"]["AnyJson4"][] | {
            [key: string]: components["schemas"]["AnyJson4"];
        };
        AnyJson4: (number | boolean | null) | string | components["schemas"]["AnyJson5"][] | {
            [key: string]: components["schemas"]["AnyJson5"];
        };
        AnyJson5: (number | boolean | null) | string | components["schemas"]["AnyJson6"][] | {
            [key: string]: components["schemas"]["AnyJson6"];
        };
        AnyJson6: (number | boolean | null) | string | components["schemas"]["AnyJson7"][] | {
            [key: string]: components["schemas"]["AnyJson7"];
        };
        AnyJson7: (number | boolean | null) | string | components["schemas"]["AnyJson8"][] | {
            [key: string]: components["schemas"]["AnyJson8"];
        };
        AnyJson8: (number | boolean | null) | string | components["schemas"]["AnyJson9"][] | {
            [key: string]: components["schemas"]["AnyJson9"];
        };
        AnyJson9: (number | boolean | null) | string | components["schemas"]["AnyJson10"][] | {
            [key: string]: components["schemas"]["AnyJson10"];
        };
        AnyJson10: (number | boolean | null) | string;
        ApiKey: {
            /** Format: date-time */
            created_at: string;
            enabled: boolean;
            /** @enum {string} */
            environment: "live" | "sandbox";
            /** Format: date-time */
            expires_at: string | null;
            id: string;
            ip_restrictions: string[];
            key_preview: string;
            /** Format: date-time */
            last_used_at: string | null;
            name: string;
            permissions: ("read" | "write")[];
            rate_limit: number | null;
            /** Format: date-time */
            revoked_at: string | null;
            vendor_id: string;
        };
        /** @description Any JSON value, with the limits above. */
        BatchItemValue: (number | boolean | null) | string | components["schemas"]["BatchItemValue2"][] | {
            [key: string]: components["schemas"]["BatchItemValue2"];
        };
        BatchItemValue2: (number | boolean | null) | string | components["schemas"]["BatchItemValue3"][] | {
            [key: string]: components["schemas"]["BatchItemValue3"];
        };
        BatchItemValue3: (number | boolean | null) | string | components["schemas"]["BatchItemValue4"][] | {
            [key: string]: components["schemas"]["BatchItemValue4"];
        };
        BatchItemValue4: (number | boolean | null) | string | components["schemas"]["BatchItemValue5"][] | {
            [key: string]: components["schemas"]["BatchItemValue5"];
        };
        BatchItemValue5: (number | boolean | null) | string | components["schemas"]["BatchItemValue6"][] | {
            [key: string]: components["schemas"]["BatchItemValue6"];
        };
        BatchItemValue6: (number | boolean | null) | string | components["schemas"]["BatchItemValue7"][] | {
            [key: string]: components["schemas"]["BatchItemValue7"];
        };
        BatchItemValue7: (number | boolean | null) | string | components["schemas"]["BatchItemValue8"][] | {
            [key: string]: components["schemas"]["BatchItemValue8"];
        };
        BatchItemValue8: (number | boolean | null) | string | components["schemas"]["BatchItemValue9"][] | {
            [key: string]: components["schemas"]["BatchItemValue9"];
        };
        BatchItemValue9: (number | boolean | null) | string | components["schemas"]["BatchItemValue10"][] | {
            [key: string]: components["schemas"]["BatchItemValue10"];
        };
        BatchItemValue10: (number | boolean | null) | string | components["schemas"]["BatchItemValue11"][] | {
            [key: string]: components["schemas"]["BatchItemValue11"];
        };
        BatchItemValue11: (number | boolean | null) | string | components["schemas"]["BatchItemValue12"][] | {
            [key: string]: components["schemas"]["BatchItemValue12"];
        };
        BatchItemValue12: (number | boolean | null) | string | components["schemas"]["BatchItemValue13"][] | {
            [key: string]: components["schemas"]["BatchItemValue13"];
        };
        BatchItemValue13: (number | boolean | null) | string | components["schemas"]["BatchItemValue14"][] | {
            [key: string]: components["schemas"]["BatchItemValue14"];
        };
        BatchItemValue14: (number | boolean | null) | string | components["schemas"]["BatchItemValue15"][] | {
            [key: string]: components["schemas"]["BatchItemValue15"];
        };
        BatchItemValue15: (number | boolean | null) | string | components["schemas"]["BatchItemValue16"][] | {
            [key: string]: components["schemas"]["BatchItemValue16"];
        };
        BatchItemValue16: (number | boolean | null) | string | components["schemas"]["BatchItemValue17"][] | {
            [key: string]: components["schemas"]["BatchItemValue17"];
        };
        BatchItemValue17: (number | boolean | null) | string | components["schemas"]["BatchItemValue18"][] | {
            [key: string]: components["schemas"]["BatchItemValue18"];
        };
        BatchItemValue18: (number | boolean | null) | string | components["schemas"]["BatchItemValue19"][] | {
            [key: string]: components["schemas"]["BatchItemValue19"];
        };
        BatchItemValue19: (number | boolean | null) | string | components["schemas"]["BatchItemValue20"][] | {
            [key: string]: components["schemas"]["BatchItemValue20"];
        };
        BatchItemValue20: (number | boolean | null) | string | components["schemas"]["BatchItemValue21"][] | {
            [key: string]: components["schemas"]["BatchItemValue21"];
        };
        BatchItemValue21: (number | boolean | null) | string | components["schemas"]["BatchItemValue22"][] | {
            [key: string]: components["schemas"]["BatchItemValue22"];
        };
        BatchItemValue22: (number | boolean | null) | string | components["schemas"]["BatchItemValue23"][] | {
            [key: string]: components["schemas"]["BatchItemValue23"];
        };
        BatchItemValue23: (number | boolean | null) | string | components["schemas"]["BatchItemValue24"][] | {
            [key: string]: components["schemas"]["BatchItemValue24"];
        };
        BatchItemValue24: (number | boolean | null) | string | components["schemas"]["BatchItemValue25"][] | {
            [key: string]: components["schemas"]["BatchItemValue25"];
        };
        BatchItemValue25: (number | boolean | null) | string | components["schemas"]["BatchItemValue26"][] | {
            [key: string]: components["schemas"]["BatchItemValue26"];
        };
        BatchItemValue26: (number | boolean | null) | string | components["schemas"]["BatchItemValue27"][] | {
            [key: string]: components["schemas"]["BatchItemValue27"];
        };
        BatchItemValue27: (number | boolean | null) | string | components["schemas"]["BatchItemValue28"][] | {
            [key: string]: components["schemas"]["BatchItemValue28"];
        };
        BatchItemValue28: (number | boolean | null) | string | components["schemas"]["BatchItemValue29"][] | {
            [key: string]: components["schemas"]["BatchItemValue29"];
        };
        BatchItemValue29: (number | boolean | null) | string | components["schemas"]["BatchItemValue30"][] | {
            [key: string]: components["schemas"]["BatchItemValue30"];
        };
        BatchItemValue30: (number | boolean | null) | string;
        BulkResult: {
            error?: {
                code?: string;
                message?: string;
            };
            id: string;
            success: boolean;
        };
        CalculatedField: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            formula: string;
            id: string;
            label: string;
            name: string;
            recalculate_on_change: boolean;
            type: string;
            /** Format: date-time */
            updated_at: string;
        };
        CalculatedSnapshot: {
            activity_id: string;
            error?: string;
            field: string;
            lead_id: string;
            /** Format: date-time */
            snapshot_at: string;
            value: unknown;
        };
        CalculationJob: {
            /** Format: date-time */
            completed_at: string | null;
            /** Format: date-time */
            created_at: string;
            error: string | null;
            fields: string[] | null;
            id: string;
            processed: number;
            reason: string;
            /** Format: date-time */
            started_at: string | null;
            /** @enum {string} */
            status: "queued" | "running" | "completed" | "failed";
            total: number | null;
            updated: number;
        };
        ChangedPassword: {
            /** Format: date-time */
            expires_at: string;
            message: string;
            token: string;
        };
        ConversionFunnel: {
            period: components["schemas"]["FunnelPeriod"];
            stages: {
                count: number;
                rateFromPrevious: number;
                rateFromSubmitted: number;
                /** @enum {string} */
                stage: "submitted" | "valid" | "accepted" | "converted";
            }[];
        };
        CreatedApiKey: components["schemas"]["ApiKey"] & {
            /** @description The full key: shown only in this answer. */
            key: string;
        };
        CreatedOAuthClient: components["schemas"]["OAuthClient"] & {
            client_secret?: string;
        };
        CrmConnection: {
            /** Format: date-time */
            created_at: string;
            credential_fields: string[];
            credentials_set: boolean;
            enabled: boolean;
            id: string;
            /** Format: date-time */
            last_sync_at: string | null;
            name: string;
            settings: Record<string, never>;
            stats: {
                failed: number;
                synced: number;
            };
            /** @enum {string} */
            type: "webhook_json" | "salesforce" | "hubspot";
            /** Format: date-time */
            updated_at: string;
        };
        CrmConnectionTest: {
            error?: string;
            response_status: number | null;
            response_time_ms: number;
            success: boolean;
        };
        CrmSyncRequested: {
            connection_id: string;
            crm_id: string | null;
            id: string;
            lead_id: string;
            /** @enum {string|null} */
            previous_status: "pending" | "syncing" | "retry_scheduled" | "synced" | "failed" | null;
            /** Format: date-time */
            requested_at: string;
            /** @constant */
            status: "pending";
        };
        CustomField: {
            /** Format: date-time */
            created_at: string;
            id: string;
            label: string;
            name: string;
            required?: boolean;
            type: string;
            validation?: Record<string, never> | null;
        };
        /** @description Any JSON value, with the limits above. */
        CustomFieldValue: (number | boolean | null) | string | components["schemas"]["CustomFieldValue2"][] | {
            [key: string]: components["schemas"]["CustomFieldValue2"];
        };
        CustomFieldValue2: (number | boolean | null) | string | components["schemas"]["CustomFieldValue3"][] | {
            [key: string]: components["schemas"]["CustomFieldValue3"];
        };
        CustomFieldValue3: (number | boolean | null) | string | components["schemas"]["CustomFieldValue4"][] | {
            [key: string]: components["schemas"]["CustomFieldValue4"];
        };
        CustomFieldValue4: (number | boolean | null) | string | components["schemas"]["CustomFieldValue5"][] | {
            [key: string]: components["schemas"]["CustomFieldValue5"];
        };
        CustomFieldValue5: (number | boolean | null) | string | components["schemas"]["CustomFieldValue6"][] | {
            [key: string]: components["schemas"]["CustomFieldValue6"];
        };
        CustomFieldValue6: (number | boolean | null) | string | components["schemas"]["CustomFieldValue7"][] | {
            [key: string]: components["schemas"]["CustomFieldValue7"];
        };
        CustomFieldValue7: (number | boolean | null) | string | components["schemas"]["CustomFieldValue8"][] | {
            [key: string]: components["schemas"]["CustomFieldValue8"];
        };
        CustomFieldValue8: (number | boolean | null) | string | components["schemas"]["CustomFieldValue9"][] | {
            [key: string]: components["schemas"]["CustomFieldValue9"];
        };
        CustomFieldValue9: (number | boolean | null) | string | components["schemas"]["CustomFieldValue10"][] | {
            [key: string]: components["schemas"]["CustomFieldValue10"];
        };
        CustomFieldValue10: (number | boolean | null) | string;
        DedupConfig: {
            action: string;
            combination?: string;
            enabled: boolean;
            match_fields: Record<string, never>[];
            scope?: string;
            threshold: number;
            vendor_overrides?: Record<string, never>;
            window_hours: number | null;
        };
        DedupLogEntry: {
            action_taken: string;
            final_score?: number | null;
            incoming_lead?: Record<string, never>;
            lead_id?: string;
            match_fields?: Record<string, never>;
            matched_lead_id?: string | null;
            reason?: string | null;
            threshold?: number | null;
            /** Format: date-time */
            timestamp: string;
        };
        DuplicateCheckResult: {
            is_duplicate: boolean;
            match_details?: {
                email?: number | null;
                name?: number | null;
            };
            matched_lead_id?: string;
            similarity_score?: number;
        };
        EnrichmentRule: {
            actions: Record<string, never>[];
            conditions: Record<string, never>;
            /** Format: date-time */
            created_at: string;
            description?: string | null;
            enabled: boolean;
            id: string;
            name: string;
            priority: number;
            stats?: Record<string, never>;
            /** Format: date-time */
            updated_at: string;
        };
        EnrichmentRulesDocument: {
            /** Format: date-time */
            exported_at?: string;
            /** @constant */
            format: "leadstream.enrichment-rules";
            rules: Record<string, never>[];
            /** @constant */
            version: 1;
        };
        EnrichmentRulesImported: {
            ids: {
                [key: string]: string;
            };
            imported: number;
            rules: components["schemas"]["EnrichmentRuleSummary"][];
        };
        EnrichmentRuleSummary: {
            /** Format: date-time */
            created_at?: string;
            enabled: boolean;
            id: string;
            name: string;
            priority: number;
            /** Format: date-time */
            updated_at?: string;
        };
        EnrichmentTestResult: {
            final_outcome: string;
            rejection_reason?: string | null;
            results: {
                actions_taken?: Record<string, never>[];
                matched: boolean;
                priority?: number;
                processing_stopped?: boolean;
                reason?: string;
                rule_id: string;
                rule_name: string;
            }[];
        };
        ErrorDetail: {
            field: string;
            message: string;
        };
        ExecutiveSummary: {
            change: {
                accepted: number | null;
                conversions: number | null;
                submitted: number | null;
            };
            current: components["schemas"]["PeriodSummary"];
            period: components["schemas"]["FunnelPeriod"];
            previous: components["schemas"]["PeriodSummary"];
            previousPeriod: components["schemas"]["FunnelPeriod"];
        };
        Export: {
            /** Format: date-time */
            completed_at?: string | null;
            /** Format: date-time */
            created_at?: string;
            download_url: string | null;
            /** Format: date-time */
            estimated_completion?: string | null;
            /** Format: date-time */
            expires_at?: string | null;
            export_id: string;
            format?: string;
            row_count?: number | null;
            /** @enum {string} */
            status: "processing" | "completed" | "failed" | "expired";
        };
        ExportStarted: {
            download_url: null;
            /** Format: date-time */
            estimated_completion: string;
            export_id: string;
            status: string;
        };
        FunnelByVendor: {
            period: components["schemas"]["FunnelPeriod"];
            vendorPairs: {
                applicationVendorId: string;
                applicationVendorName: string | null;
                averageTimeToConvertFormatted: string | null;
                averageTimeToConvertSeconds: number | null;
                conversionRate: number;
                conversions: number;
                inquiries: number;
                inquiryVendorId: string;
                inquiryVendorName: string | null;
            }[];
        };
        FunnelDaily: {
            daily: {
                applications: number;
                conversionRate: number;
                conversions: number;
                /** Format: date */
                date: string;
                inquiries: number;
            }[];
            period: components["schemas"]["FunnelPeriod"];
        };
        FunnelDropOffs: {
            byAge: {
                /** @enum {string} */
                bucket: "0-24hr" | "24-48hr" | "2-7days" | "7days+";
                count: number;
            }[];
            byVendor: {
                dropOffRate: number;
                droppedCount: number;
                totalInquiries: number;
                vendorId: string;
                vendorName: string | null;
            }[];
            dropOffRate: number;
            period: components["schemas"]["FunnelPeriod"];
            totalDroppedInquiries: number;
        };
        /** @description The funnel API error body: `details` keyed by parameter on a 400, `requestId` on a 500. */
        FunnelError: {
            details?: {
                [key: string]: string;
            };
            error: string;
            requestId?: string;
            retry_after?: number;
            /** @constant */
            success: false;
        };
        FunnelLink: {
            /** Format: uuid */
            applicationVendorId: string;
            applicationVendorName: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            inquiryVendorId: string;
            inquiryVendorName: string;
            timeWindowHours: number;
        };
        FunnelLinkCreated: {
            /** Format: uuid */
            applicationVendorId: string;
            /** Format: date-time */
            createdAt: string;
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            inquiryVendorId: string;
            timeWindowHours: number;
        };
        FunnelOverview: {
            averageTimeToConvertFormatted: string | null;
            averageTimeToConvertSeconds: number | null;
            conversionRate: number;
            matchedApplications: number;
            period: components["schemas"]["FunnelPeriod"];
            totalApplications: number;
            totalInquiries: number;
        };
        FunnelPeriod: {
            /** Format: date-time */
            end: string;
            /** Format: date-time */
            start: string;
        };
        FunnelTimeToConvert: {
            distribution: {
                /** @enum {string} */
                bucket: "0-1hr" | "1-6hr" | "6-12hr" | "12-24hr" | "24hr+";
                count: number;
                percentage: number;
            }[];
            medianTimeToConvertFormatted: string | null;
            medianTimeToConvertSeconds: number | null;
            period: components["schemas"]["FunnelPeriod"];
            totalConversions: number;
        };
        /** @description The ingestion API error body: extra keys per case (duplicate_of on a 409, reason and rule_id on a 422, ...). */
        IngestionError: {
            code?: string;
            details?: components["schemas"]["ErrorDetail"][];
            error: string;
            retry_after?: number;
            /** @constant */
            success: false;
        };
        Lead: {
            calculated_fields: Record<string, never>;
            /** Format: date-time */
            created_at: string;
            crm_id: string | null;
            crm_sync_status: string;
            /** Format: date-time */
            crm_synced_at: string | null;
            custom_fields: Record<string, never>;
            /** Format: date-time */
            deleted_at: string | null;
            duplicate_of: string | null;
            email: string;
            enrichment_data: Record<string, never>;
            first_name: string | null;
            id: string;
            ip_address: string | null;
            landing_page: string | null;
            last_name: string | null;
            phone: string | null;
            program: string | null;
            program_interest: string | null;
            referrer: string | null;
            review_flags: Record<string, never>[];
            routing: components["schemas"]["LeadRoute"] | null;
            source: string | null;
            /** @enum {string} */
            status: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
            /** Format: date-time */
            updated_at: string;
            user_agent: string | null;
            utm_campaign: string | null;
            utm_content: string | null;
            utm_medium: string | null;
            utm_source: string | null;
            utm_term: string | null;
            validation_status: string;
            vendor_id: string | null;
            vendor_name: string | null;
        };
        LeadBatchResult: {
            accepted: number;
            rejected: number;
            results: {
                details?: components["schemas"]["ErrorDetail"][];
                duplicate_of?: string;
                email?: string;
                error?: string;
                index: number;
                lead_id?: string;
                message?: string;
                reason?: string | null;
                rule_id?: string | null;
                status?: string;
                status_url?: string;
                success: boolean;
            }[];
            success: boolean;
            /** Format: date-time */
            timestamp: string;
            total: number;
        };
        LeadRoute: {
            /** @enum {string} */
            reason: "rule" | "default" | "all_connections" | "none";
            /** Format: date-time */
            routed_at: string;
            rule_id: string | null;
            targets: components["schemas"]["RoutingDestination"][];
        };
        LeadSubmissionAccepted: {
            duplicate_of?: string;
            flags?: string[];
            lead_id: string;
            message: string;
            /** @constant */
            success: true;
            /** Format: date-time */
            timestamp: string;
            warnings?: components["schemas"]["ErrorDetail"][];
        };
        LeadSubmissionPending: {
            lead_id: string;
            message: string;
            /** @constant */
            status: "processing";
            status_url: string;
            /** @constant */
            success: true;
            /** Format: date-time */
            timestamp: string;
        };
        LeadSummary: {
            /** Format: date-time */
            created_at: string;
            custom_fields: Record<string, never>;
            email: string;
            enrichment_data: Record<string, never>;
            first_name: string | null;
            id: string;
            ip_address: string | null;
            last_name: string | null;
            phone: string | null;
            program: string | null;
            program_interest: string | null;
            source: string | null;
            /** @enum {string} */
            status: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
            /** Format: date-time */
            updated_at: string;
            user_agent: string | null;
            utm_campaign: string | null;
            utm_medium: string | null;
            utm_source: string | null;
            vendor_id: string | null;
        };
        LeadVolumeTrend: {
            /** @enum {string} */
            interval: "day" | "week" | "month";
            period: components["schemas"]["FunnelPeriod"];
            points: (components["schemas"]["OutcomeCounts"] & {
                /** Format: date */
                start: string;
            })[];
        };
        LookupTable: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            id: string;
            mappings: {
                [key: string]: string;
            };
            name: string;
            /** Format: date-time */
            updated_at: string;
        };
        Message: {
            message: string;
        };
        OAuthClient: {
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            public: boolean;
            redirect_uris: string[];
        };
        OAuthError: {
            error: string;
            error_description?: string;
        };
        OAuthToken: {
            access_token: string;
            expires_in: number;
            refresh_token?: string;
            scope?: string;
            /** @constant */
            token_type: "Bearer";
        };
        Organization: {
            /** Format: date-time */
            created_at: string;
            id: string;
            name: string;
            plan: string;
            settings: {
                /**
                 * @description The automatic decision; required when auto_decision_after_hours is set.
                 * @enum {string|null}
                 */
                auto_decision?: "approve" | "reject" | null;
                /** @description Hours after which a scheduled job decides a waiting lead with `auto_decision`, recorded as "automatic"; null: never. */
                auto_decision_after_hours?: number | null;
                consent_requirements?: Record<string, never>;
                consent_retention_days?: number;
                /** @description Hours a lead may wait in the review queue before it is marked overdue (and counted in /metrics); null: no SLA. */
                review_sla_hours?: number | null;
                validation?: Record<string, never>;
            };
            /** Format: date-time */
            updated_at: string;
        };
        OutcomeCounts: {
            acceptanceRate: number;
            accepted: number;
            duplicates: number;
            pending: number;
            rejected: number;
            submitted: number;
        };
        PageMeta: {
            limit: number;
            page: number;
            total: number;
            totalPages: number;
        };
        PeriodSummary: {
            acceptanceRate: number;
            accepted: number;
            conversionRate: number;
            conversions: number;
            inquiries: number;
            submitted: number;
        };
        ProcessingStatus: {
            crm_id?: string | null;
            crm_sync_status?: string | null;
            duplicate_of?: string;
            enrichment_status?: string | null;
            id: string;
            /** Format: date-time */
            processed_at?: string | null;
            rejection_reason?: string;
            rule_id?: string | null;
            status: string;
            /** Format: date-time */
            submitted_at?: string | null;
            validation_status?: string | null;
        };
        RefreshedSession: {
            /** Format: date-time */
            expires_at: string;
            token: string;
        };
        Registered: {
            /** Format: date-time */
            expires_at?: string;
            token: string;
            user: components["schemas"]["UserSummary"];
        };
        RotatedApiKey: {
            message: string;
            new_key: string;
        };
        RoutingDestination: {
            connection_id: string;
            owner: string | null;
            queue: string | null;
        };
        RoutingRule: {
            conditions: Record<string, never>;
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** @enum {string} */
            distribution: "single" | "all" | "round_robin" | "weighted";
            enabled: boolean;
            id: string;
            name: string;
            priority: number;
            targets: components["schemas"]["RoutingTarget"][];
            /** Format: date-time */
            updated_at: string;
        };
        RoutingSettings: {
            default_targets: components["schemas"]["RoutingDestination"][];
            /** Format: date-time */
            updated_at: string | null;
            /** @enum {string} */
            when_unmatched: "all_connections" | "none";
        };
        RoutingTarget: {
            connection_id: string;
            owner: string | null;
            queue: string | null;
            weight: number | null;
        };
        RoutingTestResult: {
            /** @enum {string} */
            enrichment_outcome: "accepted" | "rejected";
            /** @enum {string} */
            reason: "rule" | "default" | "all_connections" | "none";
            rule_id: string | null;
            rule_name: string | null;
            targets: components["schemas"]["RoutingDestination"][];
        };
        Session: {
            /** Format: date-time */
            expires_at: string;
            token: string;
            user: components["schemas"]["UserSummary"];
        };
        SourcePerformance: {
            /** @enum {string} */
            groupBy: "source" | "utm_source" | "utm_medium" | "utm_campaign" | "program" | "vendor";
            period: components["schemas"]["FunnelPeriod"];
            rows: (components["schemas"]["OutcomeCounts"] & {
                label?: string | null;
                value: string | null;
            })[];
        };
        TimelineEntry: {
            detail: Record<string, never>;
            duration_ms: number;
            /** Format: date-time */
            finished_at: string;
            outcome: string;
            /** @enum {string} */
            stage: "received" | "validated" | "deduplicated" | "enriched" | "routed" | "reviewed" | "crm_synced" | "webhook_delivered";
            /** Format: date-time */
            started_at: string;
        };
        User: {
            /** Format: date-time */
            created_at: string;
            email: string;
            first_name: string;
            id: string;
            /** Format: date-time */
            invitation_expires_at?: string;
            /** Format: date-time */
            last_login_at: string | null;
            last_name: string;
            organization_id: string;
            /** @enum {string} */
            role: "owner" | "admin" | "manager" | "viewer" | "vendor";
            /** @enum {string} */
            status: "active" | "invited";
            /** Format: date-time */
            updated_at: string;
        };
        /** @description The user API error body. */
        UserError: {
            error: {
                /** @description An error code: the authentication, lead and validation codes, or one for the cases they do not cover (NOT_FOUND, METHOD_NOT_ALLOWED, UNSUPPORTED_MEDIA_TYPE, ...). */
                code: string;
                details?: components["schemas"]["ErrorDetail"][];
                message: string;
                /** @description On 429: seconds until the window resets. */
                retry_after?: number;
            };
        };
        UserSummary: {
            email: string;
            first_name: string;
            id: string;
            last_name: string;
            organization_id: string;
            /** @enum {string} */
            role: "owner" | "admin" | "manager" | "viewer" | "vendor";
        };
        ValidationCheckResult: {
            errors: components["schemas"]["ErrorDetail"][];
            valid: boolean;
            warnings: components["schemas"]["ErrorDetail"][];
        };
        ValidationRule: {
            action: string;
            condition?: string | null;
            /** Format: date-time */
            created_at: string;
            enabled: boolean;
            field: string;
            id: string;
            message?: string | null;
            name: string;
            priority: number;
            rule_type: string;
            /** Format: date-time */
            updated_at: string;
            value?: unknown;
        };
        Vendor: {
            contact_email: string | null;
            cost_per_lead: number | null;
            /** Format: date-time */
            created_at: string;
            enabled: boolean;
            group: string | null;
            id: string;
            name: string;
            /** @enum {string} */
            type: "inquiry" | "application";
            /** Format: date-time */
            updated_at: string;
        };
        VendorDailyStats: {
            acceptance_rate: number;
            accepted: number;
            /** Format: date */
            date: string;
            pending: number;
            rejected: number;
            submitted: number;
        };
        VendorMonthlySummary: {
            acceptance_rate: number;
            accepted: number;
            month: number;
            pending: number;
            rejected: number;
            rejection_breakdown: {
                duplicate: number;
                invalid_email: number;
                missing_field: number;
                other: number;
            };
            submitted: number;
            year: number;
        };
        VendorRoi: {
            period: components["schemas"]["FunnelPeriod"];
            totals: {
                accepted: number;
                conversions: number;
                costPerConversion: number | null;
                spend: number;
            };
            vendors: {
                accepted: number;
                conversions: number;
                costPerConversion: number | null;
                costPerLead: number | null;
                costPerSubmission: number | null;
                spend: number | null;
                submitted: number;
                /** @enum {string} */
                type: "inquiry" | "application";
                vendorId: string;
                vendorName: string;
            }[];
        };
        Webhook: {
            /** Format: date-time */
            created_at: string;
            description: string | null;
            /** Format: date-time */
            disabled_at: string | null;
            disabled_reason: string | null;
            enabled: boolean;
            events: string[];
            id: string;
            /** Format: date-time */
            last_triggered_at: string | null;
            sandbox: boolean;
            /** @description Masked: `whsec_…` and the last 4 characters. The full secret is shown only in the answer to POST /api/webhooks. */
            secret: string;
            stats: components["schemas"]["WebhookStats"];
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
        WebhookCreated: {
            /** Format: date-time */
            created_at: string;
            enabled: boolean;
            events: string[];
            id: string;
            /** @description The signing secret: shown in full only in this answer. */
            secret: string;
            url: string;
        };
        WebhookDelivery: {
            attempts: number;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            delivered_at: string | null;
            error: string | null;
            event_id: string;
            event_type: string;
            id: string;
            /** Format: date-time */
            last_attempt_at: string | null;
            /** Format: date-time */
            next_retry_at: string | null;
            response_status: number | null;
            response_time_ms: number | null;
            /** @enum {string} */
            status: "pending" | "retrying" | "delivered" | "failed";
        };
        WebhookResend: {
            event_id: string;
            id: string;
            resend_id: string;
        };
        WebhookStats: {
            failed_deliveries: number;
            last_30_days: number;
            successful_deliveries: number;
            total_deliveries: number;
        };
        WebhookTestResult: {
            /** @constant */
            delivered: true;
            response_status: number;
            response_time_ms: number;
            /** @constant */
            success: true;
            test_event_id: string;
        } | {
            /** @constant */
            delivered: false;
            error: string;
            response_status: null;
            response_time_ms: number;
            /** @constant */
            success: false;
        };
        WebhookUpdated: {
            enabled: boolean;
            events: string[];
            id: string;
            /** Format: date-time */
            updated_at: string;
            url: string;
        };
    };
    responses: {
        /** @description Invalid input: `details` names every invalid field */
        FunnelError400: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Missing or invalid authentication */
        FunnelError401: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Insufficient permissions (or a request from outside the key’s IP restrictions) */
        FunnelError403: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Not found */
        FunnelError404: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description The request body is larger than the service accepts */
        FunnelError413: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description The request body must be application/json */
        FunnelError415: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Rate limited: wait `Retry-After` seconds */
        FunnelError429: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Server error: back off and retry */
        FunnelError500: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Service unavailable: back off and retry */
        FunnelError503: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["FunnelError"];
            };
        };
        /** @description Invalid input: `details` names every invalid field */
        IngestionError400: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Missing or invalid authentication */
        IngestionError401: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Insufficient permissions (or a request from outside the key’s IP restrictions) */
        IngestionError403: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Not found */
        IngestionError404: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Conflict (duplicate, or the resource is in use) */
        IngestionError409: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description The request body is larger than the service accepts */
        IngestionError413: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description The request body must be application/json */
        IngestionError415: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Rejected by a business rule */
        IngestionError422: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Rate limited: wait `Retry-After` seconds */
        IngestionError429: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Server error: back off and retry */
        IngestionError500: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Service unavailable: back off and retry */
        IngestionError503: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["IngestionError"];
            };
        };
        /** @description Invalid input: `details` names every invalid field */
        OAuthError400: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description Missing or invalid authentication */
        OAuthError401: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description The request body is larger than the service accepts */
        OAuthError413: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description The request body must be application/json */
        OAuthError415: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description Rate limited: wait `Retry-After` seconds */
        OAuthError429: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description Server error: back off and retry */
        OAuthError500: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description Service unavailable: back off and retry */
        OAuthError503: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["OAuthError"] | components["schemas"]["UserError"];
            };
        };
        /** @description Invalid input: `details` names every invalid field */
        UserError400: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Missing or invalid authentication */
        UserError401: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Insufficient permissions (or a request from outside the key’s IP restrictions) */
        UserError403: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Not found */
        UserError404: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Conflict (duplicate, or the resource is in use) */
        UserError409: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Gone: the export download expired */
        UserError410: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description The request body is larger than the service accepts */
        UserError413: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description The request body must be application/json */
        UserError415: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Rejected by a business rule */
        UserError422: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Rate limited: wait `Retry-After` seconds */
        UserError429: {
            headers: {
                "Retry-After": components["headers"]["Retry-After"];
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Server error: back off and retry */
        UserError500: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
        /** @description Service unavailable: back off and retry */
        UserError503: {
            headers: {
                "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["UserError"];
            };
        };
    };
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description Seconds to wait before retrying */
        "Retry-After": number;
        /** @description Requests allowed in the window (limited endpoints) */
        "X-RateLimit-Limit": number;
        /** @description Requests left in the window (limited endpoints) */
        "X-RateLimit-Remaining": number;
        /** @description When the window resets, unix seconds (limited endpoints) */
        "X-RateLimit-Reset": number;
        /** @description The id of this request, in logs too */
        "X-Request-ID": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    analyticsOverview: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["AnalyticsOverview"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    conversionFunnel: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ConversionFunnel"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    executiveSummary: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ExecutiveSummary"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    funnelByVendor: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelByVendor"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    funnelDaily: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelDaily"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    funnelDropOffs: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                minAgeHours?: number;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelDropOffs"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    funnelOverview: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelOverview"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    funnelTimeToConvert: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelTimeToConvert"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    leadVolumeTrend: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                interval?: "day" | "week" | "month" | "";
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LeadVolumeTrend"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    sourcePerformance: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                groupBy?: "source" | "utm_source" | "utm_medium" | "utm_campaign" | "program" | "vendor" | "";
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["SourcePerformance"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    vendorRoi: {
        parameters: {
            query?: {
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default today */
                endDate?: string;
                /** @description ISO 8601 date (a whole UTC day) or date-time with a time zone; default 30 days before today */
                startDate?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["VendorRoi"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listApiKeys: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string|null} */
                    environment?: "live" | "sandbox" | null;
                    ip_restrictions?: string[];
                    name: string;
                    permissions?: ("read" | "write")[];
                    rate_limit?: number | null;
                    vendor_id: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedApiKey"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    ip_restrictions?: string[];
                    name?: string | null;
                    permissions?: ("read" | "write")[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ApiKey"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    rotateApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RotatedApiKey"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    acceptInvite: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name?: string | null;
                    last_name?: string | null;
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["UserError400"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    current_password: string;
                    new_password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ChangedPassword"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    forgotPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["UserError400"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Session"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    refreshSession: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RefreshedSession"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    first_name: string;
                    last_name: string;
                    organization_name: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Registered"];
                };
            };
            400: components["responses"]["UserError400"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    resetPassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    new_password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Message"];
                };
            };
            400: components["responses"]["UserError400"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listCalculatedFields: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculatedField"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createCalculatedField: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    formula: string;
                    label: string;
                    name: string;
                    recalculate_on_change?: boolean;
                    /** @enum {string} */
                    type: "text" | "number" | "boolean" | "date";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculatedField"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getCalculatedField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculatedField"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteCalculatedField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateCalculatedField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    formula?: string;
                    label?: string;
                    name?: string;
                    recalculate_on_change?: boolean;
                    /** @enum {string} */
                    type?: "text" | "number" | "boolean" | "date";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculatedField"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    recalculateField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculationJob"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    snapshotCalculatedField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lead_id: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculatedSnapshot"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listCalculationJobs: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculationJob"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getCalculationJob: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculationJob"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    recalculateAllFields: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CalculationJob"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listCaps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conditions: {
                                /** @enum {string} */
                                operator: "AND" | "OR";
                                rules: Record<string, never>[];
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            duration: number;
                            /** @enum {string} */
                            duration_units: "hour" | "day" | "week" | "month";
                            enabled: boolean;
                            id: string;
                            maximum: number;
                            name: string;
                            reason: string;
                            /** @enum {string} */
                            scope: "organization" | "vendor";
                            time_zone: string;
                            /** Format: date-time */
                            updated_at: string;
                            vendor_id: string | null;
                        }[];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createCap: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    conditions?: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: Record<string, never>[];
                    } | null;
                    duration?: number;
                    /** @enum {string} */
                    duration_units?: "hour" | "day" | "week" | "month";
                    enabled?: boolean;
                    maximum: number;
                    name: string;
                    reason?: string;
                    /** @enum {string} */
                    scope?: "organization" | "vendor";
                    /** @description An IANA time zone name, e.g. America/New_York */
                    time_zone?: string;
                    vendor_id?: string | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conditions: {
                                /** @enum {string} */
                                operator: "AND" | "OR";
                                rules: Record<string, never>[];
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            duration: number;
                            /** @enum {string} */
                            duration_units: "hour" | "day" | "week" | "month";
                            enabled: boolean;
                            id: string;
                            maximum: number;
                            name: string;
                            reason: string;
                            /** @enum {string} */
                            scope: "organization" | "vendor";
                            time_zone: string;
                            /** Format: date-time */
                            updated_at: string;
                            vendor_id: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getCap: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conditions: {
                                /** @enum {string} */
                                operator: "AND" | "OR";
                                rules: Record<string, never>[];
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            duration: number;
                            /** @enum {string} */
                            duration_units: "hour" | "day" | "week" | "month";
                            enabled: boolean;
                            id: string;
                            maximum: number;
                            name: string;
                            reason: string;
                            /** @enum {string} */
                            scope: "organization" | "vendor";
                            time_zone: string;
                            /** Format: date-time */
                            updated_at: string;
                            vendor_id: string | null;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteCap: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateCap: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    conditions?: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: Record<string, never>[];
                    } | null;
                    duration?: number;
                    /** @enum {string} */
                    duration_units?: "hour" | "day" | "week" | "month";
                    enabled?: boolean;
                    maximum?: number;
                    name?: string;
                    reason?: string;
                    /** @enum {string} */
                    scope?: "organization" | "vendor";
                    /** @description An IANA time zone name, e.g. America/New_York */
                    time_zone?: string;
                    vendor_id?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            conditions: {
                                /** @enum {string} */
                                operator: "AND" | "OR";
                                rules: Record<string, never>[];
                            } | null;
                            /** Format: date-time */
                            created_at: string;
                            duration: number;
                            /** @enum {string} */
                            duration_units: "hour" | "day" | "week" | "month";
                            enabled: boolean;
                            id: string;
                            maximum: number;
                            name: string;
                            reason: string;
                            /** @enum {string} */
                            scope: "organization" | "vendor";
                            time_zone: string;
                            /** Format: date-time */
                            updated_at: string;
                            vendor_id: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    capUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cap_id: string;
                            count: number;
                            maximum: number;
                            /** Format: date-time */
                            period_end: string;
                            /** Format: date-time */
                            period_start: string;
                            remaining: number;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    syncLeadToCrm: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                leadId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CrmSyncRequested"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listCrmConnections: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CrmConnection"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createCrmConnection: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentials?: {
                        auth_value?: string | null;
                        client_id?: string | null;
                        client_secret?: string | null;
                        private_app_token?: string | null;
                        refresh_token?: string | null;
                    };
                    enabled?: boolean;
                    name: string;
                    settings: {
                        api_version?: string | null;
                        auth_header?: string | null;
                        base_url?: string | null;
                        external_id_field?: string | null;
                        field_mapping?: {
                            [key: string]: string;
                        } | null;
                        /** @enum {string|null} */
                        grant_type?: "client_credentials" | "refresh_token" | null;
                        id_field?: string | null;
                        instance_url?: string | null;
                        /** @description Salesforce: true lets Salesforce's active assignment rules run on every create and update (default false: a Lead created with a routed owner, and every update, is sent with Sforce-Auto-Assign: FALSE) */
                        keep_assignment_rules?: boolean | null;
                        portal_id?: string | null;
                        record_url_template?: string | null;
                        token_url?: string | null;
                        url?: string | null;
                    };
                    /** @enum {string} */
                    type: "webhook_json" | "salesforce" | "hubspot";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CrmConnection"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteCrmConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateCrmConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    credentials?: {
                        auth_value?: string | null;
                        client_id?: string | null;
                        client_secret?: string | null;
                        private_app_token?: string | null;
                        refresh_token?: string | null;
                    };
                    enabled?: boolean;
                    name?: string;
                    settings?: {
                        api_version?: string | null;
                        auth_header?: string | null;
                        base_url?: string | null;
                        external_id_field?: string | null;
                        field_mapping?: {
                            [key: string]: string;
                        } | null;
                        /** @enum {string|null} */
                        grant_type?: "client_credentials" | "refresh_token" | null;
                        id_field?: string | null;
                        instance_url?: string | null;
                        /** @description Salesforce: true lets Salesforce's active assignment rules run on every create and update (default false: a Lead created with a routed owner, and every update, is sent with Sforce-Auto-Assign: FALSE) */
                        keep_assignment_rules?: boolean | null;
                        portal_id?: string | null;
                        record_url_template?: string | null;
                        token_url?: string | null;
                        url?: string | null;
                    };
                    /** @enum {string} */
                    type?: "webhook_json" | "salesforce" | "hubspot";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CrmConnection"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    testCrmConnection: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CrmConnectionTest"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getDedupConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DedupConfig"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateDedupConfig: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action?: "reject" | "merge" | "link-to-existing" | "flag" | "allow";
                    /** @enum {string} */
                    combination?: "and" | "or" | "weighted";
                    enabled?: boolean;
                    match_fields?: {
                        /** @enum {string} */
                        algorithm: "exact" | "levenshtein" | "jaro_winkler" | "soundex" | "email_normalized" | "phone_digits";
                        field: ("email" | "phone" | "first_name" | "last_name" | "name") | string;
                        weight?: number;
                    }[];
                    /** @enum {string} */
                    scope?: "all_vendors" | "within_vendor" | "vendor_group";
                    threshold?: number;
                    vendor_overrides?: {
                        [key: string]: {
                            /** @enum {string} */
                            action?: "reject" | "merge" | "link-to-existing" | "flag" | "allow";
                            compare_across_types?: boolean;
                            threshold?: number;
                            window_hours?: (1 | 24 | 168 | 720) | ("all" | null);
                        };
                    };
                    window_hours?: (1 | 24 | 168 | 720) | ("all" | null);
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DedupConfig"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    checkDuplicate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email?: string;
                    first_name?: string;
                    last_name?: string;
                    phone?: string;
                    vendor_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["DuplicateCheckResult"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    dedupLog: {
        parameters: {
            query?: {
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["DedupLogEntry"][];
                        meta?: {
                            limit?: number;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listCustomFields: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CustomField"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createCustomField: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    default_value?: components["schemas"]["CustomFieldValue"];
                    label?: string;
                    name: string;
                    required?: boolean;
                    /** @enum {string} */
                    type: "string" | "number" | "boolean" | "date" | "array" | "object";
                    validation?: {
                        enum?: ((number | boolean) | string)[] | null;
                        max?: number | null;
                        min?: number | null;
                        pattern?: string | null;
                    } | null;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CustomField"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteCustomField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateCustomField: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    default_value?: components["schemas"]["CustomFieldValue"];
                    label?: string;
                    name?: string;
                    required?: boolean;
                    type?: string;
                    validation?: {
                        enum?: ((number | boolean) | string)[] | null;
                        max?: number | null;
                        min?: number | null;
                        pattern?: string | null;
                    } | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CustomField"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listLookupTables: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LookupTable"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createLookupTable: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    mappings: {
                        [key: string]: string;
                    };
                    name: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LookupTable"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getLookupTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LookupTable"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteLookupTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateLookupTable: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    mappings?: {
                        [key: string]: string;
                    };
                    name?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LookupTable"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listEnrichmentRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRule"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createEnrichmentRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    actions: {
                        [key: string]: components["schemas"]["AnyJson"];
                    }[];
                    conditions: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: {
                            [key: string]: components["schemas"]["AnyJson"];
                        }[];
                    };
                    description?: string | null;
                    enabled?: boolean;
                    name: string;
                    priority: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRuleSummary"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getEnrichmentRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRule"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteEnrichmentRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateEnrichmentRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    actions?: {
                        [key: string]: components["schemas"]["AnyJson"];
                    }[];
                    conditions?: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: {
                            [key: string]: components["schemas"]["AnyJson"];
                        }[];
                    };
                    description?: string | null;
                    enabled?: boolean;
                    name?: string;
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRuleSummary"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    exportEnrichmentRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrichmentRulesDocument"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    importEnrichmentRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    exported_at?: string;
                    /** @constant */
                    format: "leadstream.enrichment-rules";
                    rules: {
                        [key: string]: components["schemas"]["AnyJson"];
                    }[];
                    /** @constant */
                    version: 1;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRulesImported"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    reorderEnrichmentRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rules: {
                        id: string;
                        priority: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["EnrichmentRule"][];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    testEnrichmentRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lead_data: {
                        [key: string]: components["schemas"]["AnyJson"];
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["EnrichmentTestResult"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Export"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    downloadExportUnderApi: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            410: components["responses"]["UserError410"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listLeads: {
        parameters: {
            query?: {
                end_date?: string;
                /** @description Empty: live. sandbox: the leads sent with vk_test_ keys (kept 24 hours; changed only by the pipeline) */
                environment?: "live" | "sandbox" | "";
                limit?: number;
                page?: number;
                program?: string;
                /** @description Text anywhere in the email or full name, 3 or more characters, accents and case ignored (gmail, example.edu, zoe lopez); a search of phone characters with 4 or more digits also matches those digits anywhere in the phone (555-2671). One or two characters match the start of the email, first or last name. */
                search?: string;
                /** @description Empty: created_at */
                sortBy?: "id" | "email" | "first_name" | "last_name" | "phone" | "status" | "source" | "vendor_id" | "program" | "program_interest" | "ip_address" | "user_agent" | "utm_source" | "utm_medium" | "utm_campaign" | "created_at" | "updated_at" | "";
                /** @description Empty: desc */
                sortOrder?: "asc" | "desc" | "";
                source?: string;
                start_date?: string;
                /** @description Empty: every status */
                status?: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived" | "";
                vendor_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LeadSummary"][];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createLead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    custom_fields?: {
                        [key: string]: components["schemas"]["CustomFieldValue"];
                    };
                    email: string;
                    first_name?: string;
                    ip_address?: string;
                    landing_page?: string;
                    last_name?: string;
                    phone?: string;
                    program?: string;
                    program_interest?: string;
                    referrer?: string;
                    source?: string;
                    user_agent?: string;
                    utm_campaign?: string;
                    utm_content?: string;
                    utm_medium?: string;
                    utm_source?: string;
                    utm_term?: string;
                    vendor_id?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Lead"];
                    };
                };
            };
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            id: string;
                            status?: string;
                            status_url?: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getLead: {
        parameters: {
            query?: {
                /** @description Empty: live. sandbox: the leads sent with vk_test_ keys (kept 24 hours; changed only by the pipeline) */
                environment?: "live" | "sandbox" | "";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Lead"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    custom_fields?: {
                        [key: string]: components["schemas"]["CustomFieldValue"];
                    };
                    email?: string;
                    first_name?: string | null;
                    ip_address?: string | null;
                    landing_page?: string | null;
                    last_name?: string | null;
                    phone?: string | null;
                    program?: string | null;
                    program_interest?: string | null;
                    referrer?: string | null;
                    source?: string | null;
                    /** @enum {string} */
                    status?: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
                    user_agent?: string | null;
                    utm_campaign?: string | null;
                    utm_content?: string | null;
                    utm_medium?: string | null;
                    utm_source?: string | null;
                    utm_term?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Lead"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    leadActivity: {
        parameters: {
            query?: {
                /** @description Empty: live. sandbox: the leads sent with vk_test_ keys (kept 24 hours; changed only by the pipeline) */
                environment?: "live" | "sandbox" | "";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ActivityEntry"][];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getLeadConsent: {
        parameters: {
            query?: {
                /** @description sandbox: the leads sent with vk_test_ keys */
                environment?: "live" | "sandbox" | "";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            canonical_json: string | null;
                            erased: boolean;
                            evidence: {
                                certificate_url?: string;
                                given_at: string;
                                ip: string;
                                /** @enum {string} */
                                method: "checkbox" | "signature" | "verbal" | "other";
                                page_url: string;
                                text: string;
                                user_agent: string;
                            } | null;
                            /** Format: date-time */
                            lead_deleted_at: string | null;
                            lead_id: string;
                            matches: boolean | null;
                            /** Format: date-time */
                            received_at: string | null;
                            sha256: string | null;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    eraseLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    suppress_list_id?: string | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            activity_entries: number;
                            dedup_log_entries: number;
                            /** Format: date-time */
                            erased_at: string;
                            exports_cleaned: number;
                            lead_id: string;
                            suppression: {
                                added: number;
                                list_id: string;
                            } | null;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    suppressLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    list_id: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            entry_count: number;
                            list_id: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    leadTimeline: {
        parameters: {
            query?: {
                /** @description Empty: live. sandbox: the leads sent with vk_test_ keys (kept 24 hours; changed only by the pipeline) */
                environment?: "live" | "sandbox" | "";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TimelineEntry"][];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    leadProcessingStatus: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lead_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessingStatus"];
                };
            };
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            404: components["responses"]["IngestionError404"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    bulkDeleteLeads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lead_ids: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        deleted: number;
                        failed: number;
                        results?: components["schemas"]["BulkResult"][];
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    bulkUpdateLeads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lead_ids: string[];
                    updates: {
                        custom_fields?: {
                            [key: string]: components["schemas"]["CustomFieldValue"];
                        };
                        first_name?: string | null;
                        ip_address?: string | null;
                        landing_page?: string | null;
                        last_name?: string | null;
                        phone?: string | null;
                        program?: string | null;
                        program_interest?: string | null;
                        referrer?: string | null;
                        source?: string | null;
                        /** @enum {string} */
                        status?: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
                        user_agent?: string | null;
                        utm_campaign?: string | null;
                        utm_content?: string | null;
                        utm_medium?: string | null;
                        utm_source?: string | null;
                        utm_term?: string | null;
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        failed: number;
                        results: components["schemas"]["BulkResult"][];
                        success: boolean;
                        updated: number;
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    exportLeads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    fields?: ("id" | "email" | "first_name" | "last_name" | "phone" | "status" | "source" | "vendor_id" | "program" | "program_interest" | "ip_address" | "user_agent" | "landing_page" | "referrer" | "utm_source" | "utm_medium" | "utm_campaign" | "utm_term" | "utm_content" | "custom_fields" | "enrichment_data" | "validation_status" | "duplicate_of" | "crm_sync_status" | "crm_id" | "crm_synced_at" | "created_at" | "updated_at" | "rejection_reason")[] | null;
                    filters?: {
                        end_date?: string;
                        program?: string;
                        search?: string;
                        source?: string;
                        start_date?: string;
                        /** @enum {string} */
                        status?: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
                        vendor_id?: string;
                    } | null;
                    /** @enum {string|null} */
                    format?: "csv" | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ExportStarted"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    submitLead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Consent evidence (docs/consent.md): what the person agreed to, when, where and how. Stored immutably with the lead, with the SHA-256 of its canonical JSON; the organization's consent_requirements may require it. */
                    consent?: {
                        /** @description A TrustedForm or Jornaya certificate URL or token. */
                        certificate_url?: string;
                        /**
                         * Format: date-time
                         * @description When the person gave consent.
                         */
                        given_at: string;
                        /** @description The person's IP address. */
                        ip: string;
                        /** @enum {unknown} */
                        method: "checkbox" | "signature" | "verbal" | "other";
                        /** @description The page the consent was given on. */
                        page_url: string;
                        /** @description The consent language the person was shown. */
                        text: string;
                        user_agent: string;
                    };
                    custom_fields?: {
                        [key: string]: components["schemas"]["CustomFieldValue"];
                    };
                    email: string;
                    first_name?: string;
                    /** Format: date-time */
                    form_started_at?: string;
                    ip_address?: string;
                    landing_page?: string;
                    last_name?: string;
                    phone?: string;
                    program_interest?: string;
                    referrer?: string;
                    source?: string;
                    user_agent?: string;
                    utm_campaign?: string;
                    utm_content?: string;
                    utm_medium?: string;
                    utm_source?: string;
                    utm_term?: string;
                    website?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadSubmissionAccepted"];
                };
            };
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadSubmissionPending"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            409: components["responses"]["IngestionError409"];
            413: components["responses"]["IngestionError413"];
            415: components["responses"]["IngestionError415"];
            422: components["responses"]["IngestionError422"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    submitLeadBatch: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    leads: {
                        [key: string]: components["schemas"]["BatchItemValue"];
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadBatchResult"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            413: components["responses"]["IngestionError413"];
            415: components["responses"]["IngestionError415"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    listOAuthClients: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["OAuthClient"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    public?: boolean | null;
                    redirect_uris: string[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["CreatedOAuthClient"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteOAuthClient: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    oauthTokenUnderApi: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id?: string;
                    client_secret?: string;
                    code?: string;
                    code_verifier?: string;
                    /** @enum {string} */
                    grant_type: "authorization_code" | "refresh_token";
                    redirect_uri?: string;
                    refresh_token?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthToken"];
                };
            };
            400: components["responses"]["OAuthError400"];
            401: components["responses"]["OAuthError401"];
            413: components["responses"]["OAuthError413"];
            415: components["responses"]["OAuthError415"];
            429: components["responses"]["OAuthError429"];
            500: components["responses"]["OAuthError500"];
            503: components["responses"]["OAuthError503"];
        };
    };
    openApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        info: Record<string, never>;
                        openapi: string;
                        paths: Record<string, never>;
                    };
                };
            };
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Organization"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string | null;
                    settings?: {
                        /**
                         * @description The automatic decision; required when auto_decision_after_hours is set.
                         * @enum {string|null}
                         */
                        auto_decision?: "approve" | "reject" | null;
                        /** @description Hours after which a scheduled job decides a waiting lead with `auto_decision`, recorded as "automatic"; null: never. */
                        auto_decision_after_hours?: number | null;
                        consent_requirements?: {
                            /** @enum {string} */
                            action?: "reject" | "flag";
                            forbidden_terms?: string[];
                            max_age_hours?: number | null;
                            required?: boolean;
                            required_terms?: string[];
                        };
                        consent_retention_days?: number;
                        /** @description Hours a lead may wait in the review queue before it is marked overdue (and counted in /metrics); null: no SLA. */
                        review_sla_hours?: number | null;
                        validation?: {
                            allow_disposable_emails?: boolean;
                            bot_detection?: {
                                flag_below_ms?: number;
                                /** @enum {string|null} */
                                high_risk_ip_action?: "reject" | "flag" | "allow" | null;
                                high_risk_ips?: string[];
                                honeypot?: boolean;
                                reject_below_ms?: number;
                            };
                            default_phone_country?: string;
                            mx_check?: boolean;
                            required_fields?: string[];
                        };
                    };
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Organization"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    startReprocessing: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dry_run?: boolean | null;
                    filter?: {
                        end_date?: string;
                        program?: string;
                        search?: string;
                        source?: string;
                        start_date?: string;
                        /** @enum {string} */
                        status?: "new" | "active" | "contacted" | "qualified" | "converted" | "rejected" | "duplicate" | "archived";
                        vendor_id?: string;
                    } | null;
                    stages: ("enrich" | "route" | "crm-sync")[];
                };
            };
        };
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cancel_requested: boolean;
                            changed: number;
                            /** Format: date-time */
                            completed_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string;
                            crm_syncs: number;
                            done: number;
                            dry_run: boolean;
                            error: string | null;
                            failed: number;
                            field_counts: {
                                [key: string]: number;
                            };
                            filter: Record<string, never>;
                            id: string;
                            sample: {
                                field: string;
                                lead_id: string;
                                new: unknown;
                                old: unknown;
                            }[];
                            stages: ("enrich" | "route" | "crm-sync")[];
                            /** Format: date-time */
                            started_at: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "completed" | "cancelled" | "failed";
                            total: number | null;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getReprocessing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cancel_requested: boolean;
                            changed: number;
                            /** Format: date-time */
                            completed_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string;
                            crm_syncs: number;
                            done: number;
                            dry_run: boolean;
                            error: string | null;
                            failed: number;
                            field_counts: {
                                [key: string]: number;
                            };
                            filter: Record<string, never>;
                            id: string;
                            sample: {
                                field: string;
                                lead_id: string;
                                new: unknown;
                                old: unknown;
                            }[];
                            stages: ("enrich" | "route" | "crm-sync")[];
                            /** Format: date-time */
                            started_at: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "completed" | "cancelled" | "failed";
                            total: number | null;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    cancelReprocessing: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            cancel_requested: boolean;
                            changed: number;
                            /** Format: date-time */
                            completed_at: string | null;
                            /** Format: date-time */
                            created_at: string;
                            created_by: string;
                            crm_syncs: number;
                            done: number;
                            dry_run: boolean;
                            error: string | null;
                            failed: number;
                            field_counts: {
                                [key: string]: number;
                            };
                            filter: Record<string, never>;
                            id: string;
                            sample: {
                                field: string;
                                lead_id: string;
                                new: unknown;
                                old: unknown;
                            }[];
                            stages: ("enrich" | "route" | "crm-sync")[];
                            /** Format: date-time */
                            started_at: string | null;
                            /** @enum {string} */
                            status: "queued" | "running" | "completed" | "cancelled" | "failed";
                            total: number | null;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listReviewQueue: {
        parameters: {
            query?: {
                end_date?: string;
                /** @description Only leads with this kind of flag */
                flag?: "possible_bot" | "email_typo" | "high_risk_ip" | "possible_duplicate" | "rule" | "";
                limit?: number;
                page?: number;
                /** @description By age: asc (oldest first, the default) or desc */
                sortOrder?: "asc" | "desc" | "";
                start_date?: string;
                vendor_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            email?: string | null;
                            first_name?: string | null;
                            flags: ("possible_bot" | "email_typo" | "high_risk_ip" | "possible_duplicate" | "rule")[];
                            /** Format: date-time */
                            held_at: string;
                            last_name?: string | null;
                            lead_id: string;
                            overdue: boolean;
                            reasons: {
                                /** @enum {string} */
                                kind: "possible_bot" | "email_typo" | "high_risk_ip" | "possible_duplicate" | "rule";
                                lead_id?: string;
                                score?: number;
                                text: string;
                            }[];
                            /** Format: date-time */
                            received_at: string;
                            vendor_id?: string | null;
                            waiting_seconds: number;
                        }[];
                        meta: {
                            counts: {
                                email_typo: number;
                                high_risk_ip: number;
                                possible_bot: number;
                                possible_duplicate: number;
                                rule: number;
                            };
                            limit: number;
                            overdue_on_page?: number;
                            page: number;
                            review_sla_hours?: number | null;
                            total: number;
                            totalPages: number;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    approveReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lead_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            decision: "approve" | "reject";
                            lead_id: string;
                            reason?: string | null;
                            reviewer: string;
                            status: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    rejectReview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lead_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason: string;
                };
            };
        };
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            decision: "approve" | "reject";
                            lead_id: string;
                            reason?: string | null;
                            reviewer: string;
                            status: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    decideReviews: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    decision: "approve" | "reject";
                    lead_ids: string[];
                    reason?: string | null;
                };
            };
        };
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        decided: number;
                        failed: number;
                        results: components["schemas"]["BulkResult"][];
                        success: boolean;
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listRoutingRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingRule"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createRoutingRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    conditions?: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: {
                            [key: string]: components["schemas"]["AnyJson"];
                        }[];
                    } | null;
                    description?: string | null;
                    /** @enum {string} */
                    distribution?: "single" | "all" | "round_robin" | "weighted";
                    enabled?: boolean;
                    name: string;
                    priority?: number;
                    targets: {
                        connection_id: string;
                        owner?: string | null;
                        queue?: string | null;
                        weight?: number | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingRule"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getRoutingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingRule"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteRoutingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateRoutingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    conditions?: {
                        /** @enum {string} */
                        operator: "AND" | "OR";
                        rules: {
                            [key: string]: components["schemas"]["AnyJson"];
                        }[];
                    } | null;
                    description?: string | null;
                    /** @enum {string} */
                    distribution?: "single" | "all" | "round_robin" | "weighted";
                    enabled?: boolean;
                    name?: string;
                    priority?: number;
                    targets?: {
                        connection_id: string;
                        owner?: string | null;
                        queue?: string | null;
                        weight?: number | null;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingRule"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    reorderRoutingRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    rules: {
                        id: string;
                        priority: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingRule"][];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getRoutingSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingSettings"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    setRoutingSettings: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    default_targets?: {
                        connection_id: string;
                        owner?: string | null;
                        queue?: string | null;
                    }[];
                    /** @enum {string} */
                    when_unmatched?: "all_connections" | "none";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingSettings"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    testRouting: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    lead_data: {
                        [key: string]: components["schemas"]["AnyJson"];
                    };
                    lead_id?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingTestResult"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listSuppressionLists: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "reject" | "flag";
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            entry_count: number;
                            expires_after_days: number | null;
                            id: string;
                            /** @enum {string} */
                            kind: "email" | "phone" | "domain";
                            name: string;
                            sandbox_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        }[];
                        meta: components["schemas"]["PageMeta"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createSuppressionList: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action?: "reject" | "flag";
                    enabled?: boolean;
                    expires_after_days?: number | null;
                    /** @enum {string} */
                    kind: "email" | "phone" | "domain";
                    name: string;
                    sandbox_only?: boolean;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "reject" | "flag";
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            entry_count: number;
                            expires_after_days: number | null;
                            id: string;
                            /** @enum {string} */
                            kind: "email" | "phone" | "domain";
                            name: string;
                            sandbox_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getSuppressionList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "reject" | "flag";
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            entry_count: number;
                            expires_after_days: number | null;
                            id: string;
                            /** @enum {string} */
                            kind: "email" | "phone" | "domain";
                            name: string;
                            sandbox_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteSuppressionList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateSuppressionList: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action?: "reject" | "flag";
                    enabled?: boolean;
                    expires_after_days?: number | null;
                    name?: string;
                    sandbox_only?: boolean;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @enum {string} */
                            action: "reject" | "flag";
                            /** Format: date-time */
                            created_at: string;
                            enabled: boolean;
                            entry_count: number;
                            expires_after_days: number | null;
                            id: string;
                            /** @enum {string} */
                            kind: "email" | "phone" | "domain";
                            name: string;
                            sandbox_only: boolean;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    addSuppressionEntries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    hashed?: boolean;
                    values: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            entry_count: number;
                            list_id: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    removeSuppressionEntries: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    hashed?: boolean;
                    values: string[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            entry_count: number;
                            list_id: string;
                            removed: number;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    checkSuppressionValue: {
        parameters: {
            query: {
                /** @description true: the value (or each row) is already the SHA-256 of the normalized value */
                hashed?: "true" | "false" | "";
                value: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: date-time */
                            added_at: string | null;
                            /** Format: date-time */
                            expires_at: string | null;
                            suppressed: boolean;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    importSuppressionEntries: {
        parameters: {
            query?: {
                /** @description true: the value (or each row) is already the SHA-256 of the normalized value */
                hashed?: "true" | "false" | "";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "text/csv": unknown;
            };
        };
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            /** Format: date-time */
                            created_at: string;
                            error: string | null;
                            /** Format: date-time */
                            finished_at: string | null;
                            id: string;
                            invalid: number;
                            list_id: string;
                            rows: number;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            status_url: string;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getSuppressionImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                job_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            added: number;
                            /** Format: date-time */
                            created_at: string;
                            error: string | null;
                            /** Format: date-time */
                            finished_at: string | null;
                            id: string;
                            invalid: number;
                            list_id: string;
                            rows: number;
                            /** @enum {string} */
                            status: "running" | "completed" | "failed";
                            status_url: string;
                        };
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listUsers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    first_name: string;
                    last_name: string;
                    password: string;
                    /** @enum {string} */
                    role: "admin" | "manager" | "viewer" | "vendor";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateUser: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    first_name?: string | null;
                    last_name?: string | null;
                    /** @enum {string|null} */
                    role?: "admin" | "manager" | "viewer" | "vendor" | null;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    inviteUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    email: string;
                    first_name?: string | null;
                    last_name?: string | null;
                    /** @enum {string} */
                    role: "admin" | "manager" | "viewer" | "vendor";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["User"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    bulkIngestLeads: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    leads: {
                        [key: string]: components["schemas"]["BatchItemValue"];
                    }[];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadBatchResult"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            413: components["responses"]["IngestionError413"];
            415: components["responses"]["IngestionError415"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    ingestLead: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Consent evidence (docs/consent.md): what the person agreed to, when, where and how. Stored immutably with the lead, with the SHA-256 of its canonical JSON; the organization's consent_requirements may require it. */
                    consent?: {
                        /** @description A TrustedForm or Jornaya certificate URL or token. */
                        certificate_url?: string;
                        /**
                         * Format: date-time
                         * @description When the person gave consent.
                         */
                        given_at: string;
                        /** @description The person's IP address. */
                        ip: string;
                        /** @enum {unknown} */
                        method: "checkbox" | "signature" | "verbal" | "other";
                        /** @description The page the consent was given on. */
                        page_url: string;
                        /** @description The consent language the person was shown. */
                        text: string;
                        user_agent: string;
                    };
                    custom_fields?: {
                        [key: string]: components["schemas"]["CustomFieldValue"];
                    };
                    email: string;
                    first_name?: string;
                    /** Format: date-time */
                    form_started_at?: string;
                    ip_address?: string;
                    landing_page?: string;
                    last_name?: string;
                    phone?: string;
                    program_interest?: string;
                    referrer?: string;
                    source?: string;
                    user_agent?: string;
                    utm_campaign?: string;
                    utm_content?: string;
                    utm_medium?: string;
                    utm_source?: string;
                    utm_term?: string;
                    website?: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadSubmissionAccepted"];
                };
            };
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LeadSubmissionPending"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            409: components["responses"]["IngestionError409"];
            413: components["responses"]["IngestionError413"];
            415: components["responses"]["IngestionError415"];
            422: components["responses"]["IngestionError422"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    listValidationRules: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ValidationRule"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createValidationRule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action: "reject" | "flag" | "transform" | "warn";
                    condition?: string | null;
                    enabled?: boolean;
                    field: ("email" | "first_name" | "last_name" | "phone" | "program_interest" | "source" | "ip_address" | "user_agent" | "landing_page" | "referrer" | "utm_source" | "utm_medium" | "utm_campaign" | "utm_term" | "utm_content") | string;
                    message: string;
                    name: string;
                    priority?: number;
                    /** @enum {string} */
                    rule_type: "required" | "format" | "length" | "range" | "whitelist" | "blacklist" | "comparison";
                    /** @enum {string} */
                    transform?: "uppercase" | "lowercase" | "titlecase" | "trim" | "digits_only";
                    value?: unknown;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ValidationRule"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            422: components["responses"]["UserError422"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getValidationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ValidationRule"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteValidationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateValidationRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    action?: "reject" | "flag" | "transform" | "warn";
                    condition?: string | null;
                    enabled?: boolean;
                    field?: ("email" | "first_name" | "last_name" | "phone" | "program_interest" | "source" | "ip_address" | "user_agent" | "landing_page" | "referrer" | "utm_source" | "utm_medium" | "utm_campaign" | "utm_term" | "utm_content") | string;
                    message?: string;
                    name?: string;
                    priority?: number;
                    /** @enum {string} */
                    rule_type?: "required" | "format" | "length" | "range" | "whitelist" | "blacklist" | "comparison";
                    /** @enum {string} */
                    transform?: "uppercase" | "lowercase" | "titlecase" | "trim" | "digits_only";
                    value?: unknown;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["ValidationRule"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    checkValidation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    [key: string]: components["schemas"]["AnyJson"];
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ValidationCheckResult"];
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listFunnelLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelLink"][];
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    createFunnelLink: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    applicationVendorId: string;
                    /** Format: uuid */
                    inquiryVendorId: string;
                    /** @default 24 */
                    timeWindowHours?: number;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["FunnelLinkCreated"];
                        /** @constant */
                        success: true;
                    };
                };
            };
            400: components["responses"]["FunnelError400"];
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            404: components["responses"]["FunnelError404"];
            413: components["responses"]["FunnelError413"];
            415: components["responses"]["FunnelError415"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    deleteFunnelLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            404: components["responses"]["FunnelError404"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    hasFunnelLinks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        hasLinks: boolean;
                        /** @constant */
                        success: true;
                    };
                };
            };
            401: components["responses"]["FunnelError401"];
            403: components["responses"]["FunnelError403"];
            429: components["responses"]["FunnelError429"];
            500: components["responses"]["FunnelError500"];
            503: components["responses"]["FunnelError503"];
        };
    };
    vendorCaps: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            count: number;
                            duration: number;
                            /** @enum {string} */
                            duration_units: "hour" | "day" | "week" | "month";
                            enabled: boolean;
                            id: string;
                            maximum: number;
                            name: string;
                            /** Format: date-time */
                            period_end: string;
                            /** Format: date-time */
                            period_start: string;
                            reason: string;
                            remaining: number;
                            time_zone: string;
                        }[];
                    };
                };
            };
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    vendorDailyStats: {
        parameters: {
            query?: {
                date?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VendorDailyStats"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    vendorExport: {
        parameters: {
            query: {
                end_date: string;
                format?: "csv" | "";
                start_date: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    vendorPortalLead: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                lead_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ProcessingStatus"];
                };
            };
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            404: components["responses"]["IngestionError404"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    vendorMonthlySummary: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                month: string;
                year: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["VendorMonthlySummary"];
                };
            };
            400: components["responses"]["IngestionError400"];
            401: components["responses"]["IngestionError401"];
            403: components["responses"]["IngestionError403"];
            404: components["responses"]["IngestionError404"];
            429: components["responses"]["IngestionError429"];
            500: components["responses"]["IngestionError500"];
            503: components["responses"]["IngestionError503"];
        };
    };
    listVendors: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createVendor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contact_email?: string | null;
                    cost_per_lead?: number | null;
                    enabled?: boolean;
                    group?: string | null;
                    name: string;
                    /** @enum {string} */
                    type: "inquiry" | "application";
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    getVendor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    replaceVendor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    contact_email?: string | null;
                    cost_per_lead?: number | null;
                    enabled?: boolean;
                    group?: string | null;
                    name: string;
                    /** @enum {string} */
                    type: "inquiry" | "application";
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteVendor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    disableVendor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    enableVendor: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Vendor"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Webhook"][];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    createWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string | null;
                    enabled?: boolean;
                    events: ("lead.created" | "lead.updated" | "lead.deleted" | "lead.validated" | "lead.rejected" | "lead.duplicate" | "lead.enriched" | "lead.crm_synced" | "lead.crm_sync_failed" | "vendor.enabled" | "vendor.disabled" | "export.completed" | "export.failed" | "lead.accepted" | "lead.erased" | "lead.reviewed" | "cap.reached")[];
                    sandbox?: boolean;
                    url: string;
                };
            };
        };
        responses: {
            /** @description Created */
            201: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookCreated"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    deleteWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description No content */
            204: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    updateWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    enabled?: boolean;
                    events?: ("lead.created" | "lead.updated" | "lead.deleted" | "lead.validated" | "lead.rejected" | "lead.duplicate" | "lead.enriched" | "lead.crm_synced" | "lead.crm_sync_failed" | "vendor.enabled" | "vendor.disabled" | "export.completed" | "export.failed" | "lead.accepted" | "lead.erased" | "lead.reviewed" | "cap.reached")[];
                    url?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookUpdated"];
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            413: components["responses"]["UserError413"];
            415: components["responses"]["UserError415"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                limit?: number;
                page?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDelivery"][];
                        meta: {
                            limit: number;
                            page: number;
                            total: number;
                        };
                    };
                };
            };
            400: components["responses"]["UserError400"];
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    resendWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Accepted: processing has not finished; follow status_url */
            202: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookResend"];
                    };
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    testWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookTestResult"];
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    downloadExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                export_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "text/csv": string;
                };
            };
            401: components["responses"]["UserError401"];
            403: components["responses"]["UserError403"];
            404: components["responses"]["UserError404"];
            409: components["responses"]["UserError409"];
            410: components["responses"]["UserError410"];
            429: components["responses"]["UserError429"];
            500: components["responses"]["UserError500"];
            503: components["responses"]["UserError503"];
        };
    };
    oauthToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/x-www-form-urlencoded": {
                    client_id?: string;
                    client_secret?: string;
                    code?: string;
                    code_verifier?: string;
                    /** @enum {string} */
                    grant_type: "authorization_code" | "refresh_token";
                    redirect_uri?: string;
                    refresh_token?: string;
                };
            };
        };
        responses: {
            /** @description OK */
            200: {
                headers: {
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OAuthToken"];
                };
            };
            400: components["responses"]["OAuthError400"];
            401: components["responses"]["OAuthError401"];
            413: components["responses"]["OAuthError413"];
            415: components["responses"]["OAuthError415"];
            429: components["responses"]["OAuthError429"];
            500: components["responses"]["OAuthError500"];
            503: components["responses"]["OAuthError503"];
        };
    };
}
