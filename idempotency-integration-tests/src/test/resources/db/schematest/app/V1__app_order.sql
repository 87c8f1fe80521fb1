CREATE TABLE app_order (
    id    BIGINT PRIMARY KEY,
    total NUMERIC(12, 2) NOT NULL
);
