// The filter builder: conditions (property, operator, typed value) joined by and/or, written as an
// OData $filter with each value as the literal of its type.

export const OPERATORS = [
  ['eq', '='], ['ne', '≠'], ['gt', '>'], ['ge', '≥'], ['lt', '<'], ['le', '≤']];

/** The OData literal of {@code value} typed {@code type}; Error when the value is not of that type. */
export function literal(type, value) {
  const v = value.trim();
  switch (type) {
    case 'Edm.String': return `'${value.replace(/'/g, "''")}'`;
    case 'Edm.Int32':
      if (!/^-?\d+$/.test(v)) throw new Error(`'${value}' is not an Edm.Int32`);
      return v;
    case 'Edm.Int64':
      if (!/^-?\d+$/.test(v)) throw new Error(`'${value}' is not an Edm.Int64`);
      return `${v}L`;
    case 'Edm.Double':
      if (v === '' || isNaN(Number(v))) throw new Error(`'${value}' is not an Edm.Double`);
      return /[.eE]/.test(v) ? v : `${v}.0`;
    case 'Edm.Boolean':
      if (!/^(true|false)$/i.test(v)) throw new Error(`'${value}' is not true or false`);
      return v.toLowerCase();
    case 'Edm.DateTime':
      if (isNaN(Date.parse(v))) throw new Error(`'${value}' is not a date and time`);
      return `datetime'${v}'`;
    case 'Edm.Guid':
      if (!/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v)) {
        throw new Error(`'${value}' is not a Guid`);
      }
      return `guid'${v}'`;
    case 'Edm.Binary':
      if (!/^([0-9a-fA-F]{2})*$/.test(v)) throw new Error(`'${value}' is not hexadecimal bytes`);
      return `X'${v}'`;
    default: throw new Error(`unknown type ${type}`);
  }
}

/**
 * The $filter of {@code conditions} ([{property, operator, type, value}]) joined by {@code join}
 * ('and' or 'or'); conditions without a property are left out.
 */
export function buildFilter(conditions, join) {
  const terms = conditions.filter(c => c.property.trim() !== '')
    .map(c => {
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(c.property.trim())) throw new Error(`'${c.property}' is not a property name`);
      return `${c.property.trim()} ${c.operator} ${literal(c.type, c.value)}`;
    });
  return terms.length > 1 ? terms.map(t => `(${t})`).join(` ${join} `) : terms.join('');
}
