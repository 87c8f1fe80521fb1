CREATE TABLE effect (
    id         BIGSERIAL PRIMARY KEY,
    endpoint   VARCHAR(64) NOT NULL,
    detail     TEXT,
    created_at TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now()
);
