-- One row per run of the shop webhook handler. Deliberately not unique on event_id: the
-- webhook:shop:{eventId} idempotency key is what keeps a redelivered event to one run, and a
-- second run would show here.
CREATE TABLE shop_webhook_run (
    id             BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    event_id       VARCHAR(255)             NOT NULL,
    topic          VARCHAR(255),
    payload_sha256 VARCHAR(64)              NOT NULL,
    handled_at     DATETIME(6)              NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX shop_webhook_run_event_idx ON shop_webhook_run (event_id);
