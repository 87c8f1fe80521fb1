-- Sessions of a user on a device, numbered 1, 2, 3... per device. The number is part of the
-- session:{userId}:{deviceId}:{number} idempotency key, so a session that ended or expired never
-- answers a login again; the unique constraint keeps two logins that race past an ended session to
-- one new session.
CREATE TABLE user_session (
    id             VARCHAR(64)              NOT NULL PRIMARY KEY,
    user_id        VARCHAR(64)              NOT NULL,
    device_id      VARCHAR(64)              NOT NULL,
    session_number INTEGER                  NOT NULL,
    token          VARCHAR(64)              NOT NULL,
    created_at     DATETIME(6)              NOT NULL,
    expires_at     DATETIME(6)              NOT NULL,
    ended_at       DATETIME(6)             ,
    CONSTRAINT user_session_device_number_uk UNIQUE (user_id, device_id, session_number),
    CONSTRAINT user_session_token_uk UNIQUE (token),
    CONSTRAINT user_session_number_ck CHECK (session_number > 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;
