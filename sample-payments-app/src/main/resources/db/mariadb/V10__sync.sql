-- Products and users synchronised from the shop. Each accepted sync raises version by one (JPA
-- @Version); the sync:{entity}:{id}:{version} key names the version an update was built on.
-- Orders never read these tables: an order keeps the prices of its cart mandate.
CREATE TABLE product (
    id         VARCHAR(64)              NOT NULL PRIMARY KEY,
    name       VARCHAR(200)             NOT NULL,
    price      BIGINT                   NOT NULL,
    currency   VARCHAR(3)               NOT NULL,
    version    BIGINT                   NOT NULL,
    updated_at DATETIME(6)              NOT NULL,
    CONSTRAINT product_price_ck CHECK (price >= 0)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE TABLE app_user (
    id           VARCHAR(64)              NOT NULL PRIMARY KEY,
    email        VARCHAR(254)             NOT NULL,
    display_name VARCHAR(200),
    version      BIGINT                   NOT NULL,
    updated_at   DATETIME(6)              NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

-- Append-only: a consent change is a new row, never an update; a user's consent to a purpose is
-- the latest row for it.
CREATE TABLE user_consent_history (
    id           BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    user_id      VARCHAR(64)              NOT NULL,
    purpose      VARCHAR(32)              NOT NULL,
    granted      BOOLEAN                  NOT NULL,
    user_version BIGINT                   NOT NULL,
    recorded_at  DATETIME(6)              NOT NULL,
    CONSTRAINT user_consent_history_user_fk FOREIGN KEY (user_id) REFERENCES app_user (id)
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX user_consent_history_user_idx ON user_consent_history (user_id, purpose, id);
