/**
 * The OData JSON codec of the Table service: request bodies in, response bodies out, streamed with
 * jackson-core (no trees, no databind).
 *
 * <ul>
 *   <li>{@link io.tablestream.core.odata.ODataJsonReader}: entity and Create Table bodies into
 *       {@link io.tablestream.core.odata.EntityBody} / {@link io.tablestream.core.odata.CreateTableBody};
 *       how values are inferred and converted, and which error each malformed body gets.</li>
 *   <li>{@link io.tablestream.core.odata.MetadataLevel}: {@code Accept}/{@code $format} negotiation.</li>
 *   <li>{@link io.tablestream.core.odata.EntityJsonWriter}, {@link io.tablestream.core.odata.EntityFeedWriter}:
 *       entities and Query Entities feeds; which properties are annotated and how values are written.</li>
 *   <li>{@link io.tablestream.core.odata.TableJsonWriter}, {@link io.tablestream.core.odata.TableFeedWriter}:
 *       tables.</li>
 *   <li>{@link io.tablestream.core.odata.ErrorJsonWriter}: {@code odata.error} bodies, batch index included.</li>
 *   <li>{@link io.tablestream.core.filter.Select}: {@code $select}.</li>
 * </ul>
 *
 * Where the service's behaviour is not documented, each class's javadoc says what we do and why, with the
 * evidence (recorded Azure responses, SDK sources, issue reports). Where we knowingly differ from the
 * service, it says so: integral Doubles are annotated so they read back as Doubles.
 */
package io.tablestream.core.odata;
