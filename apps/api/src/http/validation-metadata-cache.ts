import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<Storage['groupByPropertyName']>;

let installed = false;
/** Counts the times the kept lookups were forgotten (a rule added): what is built on them is stale once it moves. */
let generation = 0;

/** The rules' generation when the cache is installed (it moves whenever a rule is added), else undefined: nothing may be kept. */
export function validationRulesGeneration(): number | undefined {
  return installed ? generation : undefined;
}

/**
 * class-validator looks a DTO's rules up again for every object it validates: it filters the
 * class's rules and walks every decorated class of the process (`instanceof`) for inherited
 * ones, then groups the rules by property. A 50-line cart validates 51 objects, so that lookup
 * was the biggest part of validating it. The rules only change when a decorated class is defined
 * (at load, before any request), so the lookup and its grouping are kept per class here, and
 * forgotten whenever a rule is added. Only lookups without validation groups are kept (the API
 * uses none); class-validator's own results are returned, unchanged (it never mutates them).
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (installed) return;
  installed = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const addRule = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);
  let byClass = new Map<unknown, Map<string, Metadatas>>();
  let grouped = new WeakMap<Metadatas, Grouped>();
  const forget = () => {
    byClass = new Map();
    grouped = new WeakMap();
    generation += 1;
  };

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (groups && groups.length) return lookup(target, schema, always, strictGroups, groups);
    let mine = byClass.get(target);
    if (!mine) byClass.set(target, (mine = new Map()));
    const key = `${schema}|${always}|${strictGroups}`;
    let found = mine.get(key);
    if (!found) mine.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.groupByPropertyName = (metadata) => {
    let found = grouped.get(metadata);
    if (!found) {
      found = group(metadata);
      grouped.set(metadata, found);
    }
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    forget();
    addRule(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    forget();
    addConstraint(metadata);
  };
}
