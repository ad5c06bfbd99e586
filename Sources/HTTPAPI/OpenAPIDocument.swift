/// The OpenAPI 3.1 description of the API, served at `/v1/openapi.yaml`: the text of
/// docs/openapi.yaml, which a test keeps equal to this.
enum OpenAPIDocument {
    static let yaml = """
        openapi: 3.1.0
        info:
          title: smsgw HTTP API
          version: 1.0.0
          summary: Send and read encrypted SMS through a running smsgw gateway.
          description: >-
            Served by `smsgw serve` on the [http] listen address (default 127.0.0.1:8640).
            JSON uses the field names and times (ISO 8601 with the local offset) of the CLI's --json.
            Every error is application/problem+json (RFC 9457) with a sentence a person can act on.
            Tokens come from `smsgw api token create NAME --scope SCOPES`; see docs/OPERATIONS.md.
        servers:
          - url: http://127.0.0.1:8640
        security:
          - bearer: []
        paths:
          /v1/messages:
            post:
              operationId: sendMessage
              summary: Queue a text for a contact (scope send), exactly as `smsgw send` does.
              parameters:
                - name: Idempotency-Key
                  in: header
                  required: false
                  description: Repeating a key with the same body and token returns the same message and queues nothing; with another body, 409. Keys belong to the token; another token's key of the same name queues its own message.
                  schema:
                    type: string
                    minLength: 1
                    maxLength: 255
                    pattern: '^[ -~]+$'
              requestBody:
                required: true
                content:
                  application/json:
                    schema:
                      $ref: '#/components/schemas/SendRequest'
              responses:
                '202':
                  description: Queued (or, for a repeated key, queued before).
                  headers:
                    Location:
                      description: The message's path.
                      schema:
                        type: string
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/MessageDetail'
                  links:
                    GetMessage:
                      operationId: getMessage
                      description: The message just queued, by the response's id (the request's `id` is an idempotency key).
                      parameters:
                        id: '$response.body#/id'
                '400':
                  $ref: '#/components/responses/Problem'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '404':
                  $ref: '#/components/responses/Problem'
                '409':
                  $ref: '#/components/responses/Problem'
                '413':
                  $ref: '#/components/responses/Problem'
                '422':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
                '503':
                  $ref: '#/components/responses/Problem'
            get:
              operationId: listMessages
              summary: A page of messages after a cursor, oldest first (scope read).
              parameters:
                - name: direction
                  in: query
                  schema:
                    type: string
                    enum: [in, out]
                - name: contact
                  in: query
                  schema:
                    type: string
                - name: state
                  in: query
                  schema:
                    type: string
                - name: after
                  in: query
                  description: The previous page's next (0 for the first page). A cursor beyond every message id this store has handed out (from a restored backup or another store) is 409.
                  schema:
                    type: integer
                    minimum: 0
                    maximum: 9223372036854775807
                - name: limit
                  in: query
                  schema:
                    type: integer
                    minimum: 1
                    maximum: 500
                    default: 50
              responses:
                '200':
                  description: The page.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/MessagePage'
                '400':
                  $ref: '#/components/responses/Problem'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '404':
                  $ref: '#/components/responses/Problem'
                '409':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/messages/{id}:
            get:
              operationId: getMessage
              summary: One message, each state it entered and when, its attempts and last error (scope read).
              parameters:
                - name: id
                  in: path
                  required: true
                  schema:
                    type: integer
                    minimum: 1
                    maximum: 9223372036854775807
              responses:
                '200':
                  description: The message.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/MessageDetail'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '404':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/contacts:
            get:
              operationId: listContacts
              summary: Every contact, as `smsgw contact list --json` prints them (scope read).
              responses:
                '200':
                  description: The contacts, by name.
                  content:
                    application/json:
                      schema:
                        type: array
                        items:
                          $ref: '#/components/schemas/Contact'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/contacts/{name}:
            get:
              operationId: getContact
              summary: One contact, as `smsgw contact show --json` prints it (scope read).
              parameters:
                - $ref: '#/components/parameters/ContactName'
              responses:
                '200':
                  description: The contact.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Contact'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '404':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/contacts/{name}/resync:
            post:
              operationId: resyncContact
              summary: Start a resync with the contact over SMS, as `smsgw resync NAME` does (scope admin).
              parameters:
                - $ref: '#/components/parameters/ContactName'
              responses:
                '202':
                  description: The handshake is queued.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/StartedResync'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '404':
                  $ref: '#/components/responses/Problem'
                '409':
                  $ref: '#/components/responses/Problem'
                '422':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
                '503':
                  $ref: '#/components/responses/Problem'
          /v1/status:
            get:
              operationId: getStatus
              summary: Modems, the outbox, contacts' sync states, the daemon's version and uptime (scope read).
              responses:
                '200':
                  description: The status, as `smsgw status --json` prints it, with version and uptimeSeconds.
                  content:
                    application/json:
                      schema:
                        $ref: '#/components/schemas/Status'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/events:
            get:
              operationId: streamEvents
              summary: Server-Sent Events of every change as it is committed (scope read).
              description: >-
                Each event has `id:` (its cursor), `event:` and `data:` one line of JSON. A change of the
                message log is `event: message` with the `smsgw log --follow --json` line of the change; a
                contact or modem event of the journal is `event: contact.desync`, `contact.resynced`,
                `modem.down` or `modem.up` with the event as a webhook receives it (`id`, `type`,
                `timestamp`, `data`). The `id:` is one number, (L + 1) × 10^9 + J, where L is the last log
                change and J the last journal event sent: it increases with every event. Reconnect with
                Last-Event-ID (or ?after=) to resume after the last event seen, losing and repeating
                nothing; 0 starts at the beginning of both, and an id below 10^9 (from a version whose
                stream held log changes alone) resumes the log after it and the journal at its end.
                Without either, the stream starts at the present. An id beyond every event this store
                handed out (kept across a restored backup or from another store) gets 409: start again
                without it.
              parameters:
                - name: Last-Event-ID
                  in: header
                  schema:
                    type: string
                - name: after
                  in: query
                  schema:
                    type: integer
                    minimum: 0
                    maximum: 9223372036854775807
              responses:
                '200':
                  description: >-
                    The stream. It ends when the daemon stops, or before the first event after the token
                    was revoked or expired (checked again before each event); reconnecting then gets 401.
                  content:
                    text/event-stream:
                      schema:
                        type: string
                '400':
                  $ref: '#/components/responses/Problem'
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '409':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /v1/openapi.yaml:
            get:
              operationId: getOpenAPI
              summary: This document.
              security: []
              responses:
                '200':
                  description: OpenAPI 3.1 in YAML.
                  content:
                    application/yaml:
                      schema:
                        type: string
          /metrics:
            get:
              operationId: getMetrics
              summary: Prometheus metrics in the text format (scope metrics, or read, which includes it).
              responses:
                '200':
                  description: The metrics.
                  content:
                    text/plain:
                      schema:
                        type: string
                '401':
                  $ref: '#/components/responses/Problem'
                '403':
                  $ref: '#/components/responses/Problem'
                '429':
                  $ref: '#/components/responses/Throttled'
          /health/live:
            get:
              operationId: getLiveness
              summary: 200 while the daemon answers.
              security: []
              responses:
                '200':
                  description: Live.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status]
                        properties:
                          status:
                            const: live
          /health/ready:
            get:
              operationId: getReadiness
              summary: 200 when the store is unlocked and takes writes and a modem is ready, else 503 saying why (the store refuses writes; no modem ready yet; a modem that went away, and when).
              security: []
              responses:
                '200':
                  description: Ready.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [status, modems]
                        properties:
                          status:
                            const: ready
                          modems:
                            type: string
                            description: The ready modems, comma-separated.
                '503':
                  $ref: '#/components/responses/Problem'
        components:
          securitySchemes:
            bearer:
              type: http
              scheme: bearer
              description: A token from `smsgw api token create`.
          parameters:
            ContactName:
              name: name
              in: path
              required: true
              schema:
                type: string
          responses:
            Problem:
              description: An error (RFC 9457) with a sentence that says what to do.
              content:
                application/problem+json:
                  schema:
                    $ref: '#/components/schemas/Problem'
            Throttled:
              description: >-
                The client's address made 10 failed authentications within a minute ([http]
                auth_failure_limit sets the number) and this request's token is missing or fails too;
                Retry-After says when the address may try again. A request with a valid token is served
                whatever its address's failures.
              headers:
                Retry-After:
                  description: Seconds until the address may try again.
                  schema:
                    type: integer
              content:
                application/problem+json:
                  schema:
                    $ref: '#/components/schemas/Problem'
          schemas:
            Problem:
              type: object
              required: [type, title, status, detail]
              properties:
                type:
                  type: string
                  description: urn:smsgw:problem:CATEGORY (invalid-input, not-found, conflict, authentication, forbidden, locked, busy, unavailable, …).
                title:
                  type: string
                status:
                  type: integer
                detail:
                  type: string
            SendRequest:
              type: object
              required: [contact, text]
              properties:
                contact:
                  type: string
                  description: The contact's name (without regard to case).
                text:
                  type: string
                  description: >-
                    GSM 03.38 text, not only spaces; over 141 septets it becomes parts (at most 8). A text
                    that is not GSM-7 or needs more SMS gets 422 naming the characters or the length: the
                    alphabet and the septet count are more than a JSON Schema says.
                id:
                  type: string
                  minLength: 1
                  maxLength: 255
                  pattern: '^[ -~]+$'
                  description: An idempotency key (printable ASCII), when not given in the Idempotency-Key header.
            Message:
              type: object
              description: One message as `smsgw log --json` prints it.
              required: [id, seq, time, direction, contact, number, status, text, ciphertext, error]
              properties:
                id:
                  type: integer
                seq:
                  type: integer
                time:
                  type: string
                  format: date-time
                direction:
                  type: string
                  enum: [in, out]
                contact:
                  type: [string, 'null']
                number:
                  type: [string, 'null']
                status:
                  type: string
                text:
                  type: [string, 'null']
                ciphertext:
                  type: [string, 'null']
                error:
                  type: [string, 'null']
            MessageDetail:
              description: The message with each state it entered, its SMS's attempts and last error.
              allOf:
                - $ref: '#/components/schemas/Message'
                - type: object
                  required: [state, createdAt, history, states, parts, attempts, lastError]
                  properties:
                    state:
                      type: string
                      description: queued, sent, delivered, failed for outgoing texts; decrypted and others for incoming.
                    createdAt:
                      type: string
                      format: date-time
                    states:
                      type: object
                      description: >-
                        When the message first entered each state, null for a state it has not reached.
                        `submitting` is when a modem first took one of its SMS; an acknowledgement from the
                        peer's gateway counts as `delivered` when no delivery report came first.
                      required: [queued, submitting, sent, delivered, failed]
                      properties:
                        queued:
                          type: [string, 'null']
                          format: date-time
                        submitting:
                          type: [string, 'null']
                          format: date-time
                        sent:
                          type: [string, 'null']
                          format: date-time
                        delivered:
                          type: [string, 'null']
                          format: date-time
                        failed:
                          type: [string, 'null']
                          format: date-time
                    history:
                      type: array
                      items:
                        type: object
                        required: [seq, status, time]
                        properties:
                          seq:
                            type: integer
                          status:
                            type: string
                          time:
                            type: string
                            format: date-time
                    parts:
                      type: integer
                    attempts:
                      type: integer
                    lastError:
                      type: [string, 'null']
            MessagePage:
              type: object
              required: [messages, next]
              properties:
                messages:
                  type: array
                  items:
                    $ref: '#/components/schemas/Message'
                next:
                  type: integer
                  description: The cursor of the following page (pass it as after).
            Contact:
              type: object
              description: One contact as `smsgw contact show --json` prints it (docs/CLI.md).
              required: [name, number, numbers, modem, pairing, sync, quarantined, lastSentAt, lastReceivedAt]
              properties:
                name:
                  type: string
                number:
                  type: [string, 'null']
                numbers:
                  type: array
                  items:
                    type: string
                modem:
                  type: [string, 'null']
                pairing:
                  type: string
                sync:
                  type: object
                  required: [state]
                  properties:
                    state:
                      type: string
                    keysRestoredAt:
                      type: [string, 'null']
                      description: When a restore put this side's keys for the contact back to a backup's (state failing), until a resync or a manual re-pairing completes; or, with state not paired, when a restore put back a backup taken before the pairing completed (action pair, from new codes on both sides), until a pairing completes.
                quarantined:
                  type: integer
                lastSentAt:
                  type: [string, 'null']
                lastReceivedAt:
                  type: [string, 'null']
            StartedResync:
              type: object
              required: [id, contact, code]
              properties:
                id:
                  type: integer
                  description: The log row of the started resync.
                contact:
                  type: string
                code:
                  type: string
                  description: The confirmation code to read to the contact's operator.
            Modem:
              type: object
              required: [name, state, connected, signalPercent, networkOperator, lastError, sentCount, receivedCount, updatedAt, node]
              properties:
                name:
                  type: string
                state:
                  type: string
                  enum: [connecting, ready, recovering, waiting for device, wrong PIN, stopped]
                connected:
                  type: boolean
                signalPercent:
                  type: [integer, 'null']
                networkOperator:
                  type: [string, 'null']
                lastError:
                  type: [string, 'null']
                sentCount:
                  type: integer
                receivedCount:
                  type: integer
                updatedAt:
                  type: string
                node:
                  type: [string, 'null']
                  description: The node whose daemon drives the modem ([node] name).
                leftReadyAt:
                  type: [string, 'null']
                  description: When the modem stopped being ready while its daemon runs (this node's modems); null while ready, or when not ready since the daemon started.
            Node:
              type: object
              required: [name, state, version, startedAt, heartbeatAt, healthSeconds, leaseSeconds, modems]
              properties:
                name:
                  type: string
                state:
                  type: string
                  enum: [up, down, stopped]
                  description: As its lease says; down once its last heartbeat is older than its lease; the other nodes then send its claims and pinned contacts.
                stoppedUncleanly:
                  type: boolean
                  description: Its daemon on this host's data directory ended without a clean stop (killed, crashed), whatever its lease says.
                version:
                  type: string
                startedAt:
                  type: string
                heartbeatAt:
                  type: string
                healthSeconds:
                  type: number
                leaseSeconds:
                  type: number
                leaseEndsAt:
                  type: string
                  description: Its last heartbeat plus its lease.
                modems:
                  type: array
                  items:
                    type: string
            Status:
              type: object
              required: [modems, nodes, outbox, queue, contacts, version, uptimeSeconds]
              properties:
                modems:
                  type: array
                  items:
                    $ref: '#/components/schemas/Modem'
                nodes:
                  type: array
                  items:
                    $ref: '#/components/schemas/Node'
                outbox:
                  type: object
                  additionalProperties:
                    type: integer
                queue:
                  type: array
                  items:
                    type: object
                contacts:
                  type: array
                  items:
                    $ref: '#/components/schemas/Contact'
                daemon:
                  type: [object, 'null']
                storeRefusal:
                  type: object
                  description: Present while the store refuses the daemon's writes (a full disk); received SMS wait on the modems.
                  required: [since, waiting, error]
                  properties:
                    since:
                      type: string
                    waiting:
                      type: integer
                      description: Received SMS the last reads of the modems could not record.
                    error:
                      type: [string, 'null']
                version:
                  type: string
                uptimeSeconds:
                  type: integer
        """
}
