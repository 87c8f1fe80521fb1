-- Lists of a customer's payments lead with customer_id: an index that led with tenant_id, shared
-- with the unique (tenant_id, idempotency_key) lookup, could be picked by a cached generic plan for
-- that lookup, and then scanned every payment of the tenant.
DROP INDEX payment_tenant_customer_idx ON payment;
CREATE INDEX payment_customer_tenant_idx ON payment (customer_id, tenant_id);
