#!/usr/bin/env python3
"""Runs the scenarios of the Python SDK's table samples (azure-data-tables 12.4) against a server.

Each scenario below follows one of the samples the SDK documents (authentication, create/delete
table, insert/delete entities, query tables, query entities, update/upsert/merge, batching,
conditional update, entity metadata, service properties, service stats, table access policies and
SAS), written for a path-style endpoint such as Tablestream's or the storage emulator's.

Usage: TABLES_CONNECTION_STRING='DefaultEndpointsProtocol=http;AccountName=...;AccountKey=...;TableEndpoint=http://127.0.0.1:10002/devstoreaccount1;'
       python3 run_samples.py [scenario ...]

Prints one line per scenario (PASS/FAIL) and a closing 'N passed, N failed' line; exits 1 when any
failed.
"""
import asyncio
import os
import sys
import traceback
import uuid
from datetime import datetime, timedelta, timezone

from azure.core import MatchConditions
from azure.core.credentials import AzureNamedKeyCredential, AzureSasCredential
from azure.core.exceptions import HttpResponseError, ResourceExistsError, ResourceModifiedError, ResourceNotFoundError
from azure.data.tables import (
    AccountSasPermissions, EdmType, EntityProperty, ResourceTypes, TableAccessPolicy, TableAnalyticsLogging,
    TableClient, TableCorsRule, TableMetrics, TableRetentionPolicy, TableSasPermissions, TableServiceClient,
    UpdateMode, generate_account_sas, generate_table_sas,
)

CONNECTION_STRING = os.environ.get("TABLES_CONNECTION_STRING")


def settings():
    parts = dict(p.split("=", 1) for p in CONNECTION_STRING.strip(";").split(";") if p)
    return parts["AccountName"], parts["AccountKey"], parts["TableEndpoint"].rstrip("/")


def new_name(prefix):
    return prefix + uuid.uuid4().hex[:10]


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def service():
    return TableServiceClient.from_connection_string(CONNECTION_STRING)


# --- sample_authentication: connection string, named key, account SAS -----------------------------
def authentication():
    account, key, endpoint = settings()
    check(service().get_service_properties() is not None, "properties by connection string")
    named = TableServiceClient(endpoint=endpoint, credential=AzureNamedKeyCredential(account, key))
    check(named.get_service_properties() is not None, "properties by named key")
    sas = generate_account_sas(AzureNamedKeyCredential(account, key), resource_types=ResourceTypes(service=True),
                               permission=AccountSasPermissions(read=True),
                               expiry=datetime.utcnow() + timedelta(hours=1))
    by_sas = TableServiceClient(endpoint=endpoint, credential=AzureSasCredential(sas))
    check(by_sas.get_service_properties() is not None, "properties by account SAS")


# --- sample_create_client / sample_create_delete_table ----------------------------------------------
def create_delete_table():
    svc = service()
    name = new_name("SampleTable")
    table = svc.create_table(name)
    check(table.table_name == name, "created table name")
    try:
        svc.create_table(name)
        raise AssertionError("a second create must fail")
    except ResourceExistsError:
        pass
    again = svc.create_table_if_not_exists(name)
    check(again.table_name == name, "create_table_if_not_exists")
    client = TableClient.from_connection_string(CONNECTION_STRING, table_name=new_name("FromClient"))
    client.create_table()
    client.delete_table()
    svc.delete_table(name)
    svc.delete_table(name)  # deleting a missing table is not an error for the SDK


# --- sample_query_tables ----------------------------------------------------------------------------
def query_tables():
    svc = service()
    prefix = new_name("Q")
    names = [prefix + suffix for suffix in ("a", "b", "c")]
    for n in names:
        svc.create_table(n)
    try:
        listed = [t.name for t in svc.list_tables()]
        check(all(n in listed for n in names), "list_tables lists the new tables")
        found = [t.name for t in svc.query_tables("TableName eq @name", parameters={"name": names[1]})]
        check(found == [names[1]], f"query_tables by name: {found}")
        paged = svc.list_tables(results_per_page=2).by_page()
        check(len(list(next(paged))) <= 2, "a page of at most results_per_page tables")
    finally:
        for n in names:
            svc.delete_table(n)


def sample_entity(pk="color", rk="brand"):
    return {
        "PartitionKey": pk, "RowKey": rk, "text": "Marker", "color": "Purple", "price": 4.99,
        "last_updated": datetime(2021, 6, 1, 12, 30, tzinfo=timezone.utc), "product_id": uuid.uuid4(),
        "inventory_count": 42, "barcode": b"135aefg8oj0ld58", "big": EntityProperty(2 ** 40, EdmType.INT64),
        "available": True,
    }


# --- sample_insert_delete_entities / sample_get_entity_etag_and_timestamp ----------------------------
def insert_delete_entities():
    with service().create_table(new_name("Entities")) as table:
        try:
            entity = sample_entity()
            created = table.create_entity(entity=entity)
            check("etag" in created, "create_entity returns the etag")
            try:
                table.create_entity(entity=entity)
                raise AssertionError("a second insert must fail")
            except ResourceExistsError:
                pass
            got = table.get_entity(partition_key="color", row_key="brand")
            check(got["price"] == 4.99 and got["inventory_count"] == 42, f"values read back: {got}")
            check(got["barcode"] == b"135aefg8oj0ld58", "binary read back")
            check(got["big"].value == 2 ** 40, "Int64 read back")
            check(got["last_updated"] == datetime(2021, 6, 1, 12, 30, tzinfo=timezone.utc), "DateTime read back")
            check(got.metadata["etag"] and got.metadata["timestamp"], "etag and timestamp in metadata")
            table.delete_entity(partition_key="color", row_key="brand")
            table.delete_entity(entity=got)  # a second delete is not an error for the SDK
            try:
                table.get_entity("color", "brand")
                raise AssertionError("the deleted entity must be gone")
            except ResourceNotFoundError:
                pass
        finally:
            table.delete_table()


# --- sample_query_table -----------------------------------------------------------------------------
def query_entities():
    with service().create_table(new_name("Query")) as table:
        try:
            for i in range(25):
                e = sample_entity("pk", "rk%03d" % i)
                e["price"] = float(i)
                e["color"] = "Red" if i % 2 else "Blue"
                table.create_entity(e)
            red = list(table.query_entities("color eq @c and price gt @p", parameters={"c": "Red", "p": 10.0}))
            check(len(red) == 7, f"filtered by parameters: {len(red)}")
            selected = list(table.query_entities("PartitionKey eq 'pk'", select=["RowKey", "price"]))
            check(len(selected) == 25 and set(selected[0].keys()) <= {"RowKey", "price"}, "select")
            pages = list(table.list_entities(results_per_page=10).by_page())
            check([len(list(p)) for p in pages] == [10, 10, 5], "pages of 10")
            check(len(list(table.query_entities("available eq true"))) == 25, "Boolean filter")
        finally:
            table.delete_table()


# --- sample_update_upsert_merge_entities / sample_conditional_update ----------------------------------
def update_upsert_merge():
    with service().create_table(new_name("Upsert")) as table:
        try:
            table.create_entity({"PartitionKey": "p", "RowKey": "r", "a": 1, "b": "x"})
            table.update_entity({"PartitionKey": "p", "RowKey": "r", "c": True}, mode=UpdateMode.MERGE)
            merged = table.get_entity("p", "r")
            check(merged["a"] == 1 and merged["c"] is True, "merge keeps other properties")
            table.update_entity({"PartitionKey": "p", "RowKey": "r", "d": 2.5}, mode=UpdateMode.REPLACE)
            replaced = table.get_entity("p", "r")
            check("a" not in replaced and replaced["d"] == 2.5, "replace drops other properties")
            table.upsert_entity({"PartitionKey": "p", "RowKey": "new", "e": "y"}, mode=UpdateMode.MERGE)
            table.upsert_entity({"PartitionKey": "p", "RowKey": "new", "f": "z"}, mode=UpdateMode.REPLACE)
            check(table.get_entity("p", "new").get("e") is None, "upsert replace")
            current = table.get_entity("p", "r")
            table.update_entity({"PartitionKey": "p", "RowKey": "r", "g": 1}, mode=UpdateMode.MERGE,
                                etag=current.metadata["etag"], match_condition=MatchConditions.IfNotModified)
            try:
                table.update_entity({"PartitionKey": "p", "RowKey": "r", "g": 2}, mode=UpdateMode.MERGE,
                                    etag=current.metadata["etag"], match_condition=MatchConditions.IfNotModified)
                raise AssertionError("a stale etag must fail")
            except ResourceModifiedError:
                pass
            try:
                table.delete_entity("p", "r", etag=current.metadata["etag"], match_condition=MatchConditions.IfNotModified)
                raise AssertionError("a delete with a stale etag must fail")
            except ResourceModifiedError:
                pass
        finally:
            table.delete_table()


# --- sample_batching ----------------------------------------------------------------------------------
def batching():
    with service().create_table(new_name("Batch")) as table:
        try:
            table.create_entity({"PartitionKey": "p", "RowKey": "update", "n": 0})
            table.create_entity({"PartitionKey": "p", "RowKey": "delete"})
            operations = [
                ("create", {"PartitionKey": "p", "RowKey": "created", "n": 1}),
                ("update", {"PartitionKey": "p", "RowKey": "update", "n": 2}, {"mode": "merge"}),
                ("upsert", {"PartitionKey": "p", "RowKey": "upserted", "n": 3}, {"mode": "replace"}),
                ("delete", {"PartitionKey": "p", "RowKey": "delete"}),
            ]
            results = table.submit_transaction(operations)
            check(len(results) == 4, "one result per operation")
            rows = sorted(e["RowKey"] for e in table.list_entities())
            check(rows == ["created", "update", "upserted"], f"rows after the batch: {rows}")
            try:
                table.submit_transaction([("create", {"PartitionKey": "p", "RowKey": "created"}),
                                          ("create", {"PartitionKey": "p", "RowKey": "another"})])
                raise AssertionError("a batch with a failing operation must fail")
            except HttpResponseError:
                pass
            check(sorted(e["RowKey"] for e in table.list_entities()) == rows, "a failed batch changes nothing")
        finally:
            table.delete_table()


# --- service properties (sample_create_client, the SDK's service property docs) -----------------------
def service_properties():
    svc = service()
    before = svc.get_service_properties()
    logging = TableAnalyticsLogging(read=True, write=True, delete=True,
                                    retention_policy=TableRetentionPolicy(enabled=True, days=5))
    metrics = TableMetrics(enabled=True, include_apis=True, retention_policy=TableRetentionPolicy(enabled=True, days=5))
    cors = [TableCorsRule(["https://www.example.com"], ["GET", "PUT"])]
    try:
        svc.set_service_properties(analytics_logging=logging, hour_metrics=metrics, minute_metrics=metrics, cors=cors)
        after = svc.get_service_properties()
        check(after["analytics_logging"].read and after["analytics_logging"].retention_policy.days == 5, "logging")
        check(after["cors"][0].allowed_origins == ["https://www.example.com"], "cors rules")
    finally:
        svc.set_service_properties(analytics_logging=before["analytics_logging"], hour_metrics=before["hour_metrics"],
                                   minute_metrics=before["minute_metrics"], cors=before["cors"] or [])


# --- get_service_stats: served on the secondary location ----------------------------------------------
def service_stats():
    stats = service().get_service_stats()
    check(stats["geo_replication"]["status"] == "live", f"replication status: {stats}")
    check(stats["geo_replication"]["last_sync_time"] is not None, "last sync time")


# --- table access policies and SAS (sample_authentication, the SDK's SAS docs) --------------------------
def access_policies_and_sas():
    account, key, endpoint = settings()
    svc = service()
    name = new_name("Sas")
    table = svc.create_table(name)
    try:
        table.create_entity({"PartitionKey": "p", "RowKey": "r", "v": 1})
        start = datetime.utcnow() - timedelta(minutes=5)
        policy = TableAccessPolicy(start=start, expiry=start + timedelta(hours=1), permission="r")
        table.set_table_access_policy(signed_identifiers={"readers": policy})
        got = table.get_table_access_policy()
        check(got["readers"].permission == "r", f"stored policy: {got}")
        by_policy = generate_table_sas(AzureNamedKeyCredential(account, key), name, policy_id="readers")
        reader = TableClient(endpoint=endpoint, table_name=name, credential=AzureSasCredential(by_policy))
        check(reader.get_entity("p", "r")["v"] == 1, "read with a stored-policy SAS")
        writer_sas = generate_table_sas(AzureNamedKeyCredential(account, key), name,
                                        permission=TableSasPermissions(add=True),
                                        expiry=datetime.utcnow() + timedelta(hours=1))
        writer = TableClient(endpoint=endpoint, table_name=name, credential=AzureSasCredential(writer_sas))
        writer.create_entity({"PartitionKey": "p", "RowKey": "added"})
        try:
            writer.get_entity("p", "r")
            raise AssertionError("an add-only SAS must not read")
        except HttpResponseError:
            pass
        table.set_table_access_policy(signed_identifiers={})
        check(table.get_table_access_policy() == {}, "policies cleared")
    finally:
        svc.delete_table(name)


# --- the async samples: the same client over aiohttp ----------------------------------------------------
def async_client():
    from azure.data.tables.aio import TableServiceClient as AsyncTableServiceClient

    async def run():
        async with AsyncTableServiceClient.from_connection_string(CONNECTION_STRING) as svc:
            name = new_name("Async")
            table = await svc.create_table(name)
            try:
                await table.create_entity({"PartitionKey": "p", "RowKey": "r", "n": 1})
                await table.submit_transaction([("upsert", {"PartitionKey": "p", "RowKey": "s", "n": 2})])
                rows = [e["RowKey"] async for e in table.query_entities("n ge @n", parameters={"n": 1})]
                check(sorted(rows) == ["r", "s"], f"async query: {rows}")
                stats = await svc.get_service_stats()
                check(stats["geo_replication"]["status"] == "live", "async stats")
            finally:
                await svc.delete_table(name)

    asyncio.run(run())


SCENARIOS = [authentication, create_delete_table, query_tables, insert_delete_entities, query_entities,
             update_upsert_merge, batching, service_properties, service_stats, access_policies_and_sas, async_client]


def main(argv):
    if not CONNECTION_STRING:
        print("Set TABLES_CONNECTION_STRING to the server's connection string.", file=sys.stderr)
        return 2
    chosen = [s for s in SCENARIOS if not argv or s.__name__ in argv]
    passed = failed = 0
    for scenario in chosen:
        try:
            scenario()
            passed += 1
            print(f"PASS python {scenario.__name__}", flush=True)
        except Exception:  # report every failure, run every scenario
            failed += 1
            print(f"FAIL python {scenario.__name__}", flush=True)
            traceback.print_exc(limit=8)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
