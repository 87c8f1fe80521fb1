-- Updates of a session's cart, in the order they were applied: tests of @IdempotentSequence.
CREATE TABLE session_update (
    id         BIGSERIAL PRIMARY KEY,
    session_id VARCHAR(255) NOT NULL,
    sequence   BIGINT       NOT NULL,
    item       VARCHAR(255) NOT NULL
);
