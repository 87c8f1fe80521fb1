-- Shipments of placed orders (the "kafka" profile). Deliberately not unique on order_id: the
-- order-placed:{orderId} idempotency key is what keeps a redelivered event to one shipment, and a
-- second shipment would show here.
CREATE TABLE shipment (
    id              BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY,
    order_id        VARCHAR(255)             NOT NULL,
    customer_id     VARCHAR(255)             NOT NULL,
    items           INTEGER                  NOT NULL,
    tracking_number VARCHAR(64)              NOT NULL,
    scheduled_at    DATETIME(6)              NOT NULL
) ENGINE = InnoDB DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_nopad_bin;

CREATE INDEX shipment_order_idx ON shipment (order_id);
