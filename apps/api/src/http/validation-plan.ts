import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';
import { validationRulesGeneration } from './validation-metadata-cache';

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;
type Metadata = Metadatas[number];
type Grouped = ReturnType<Storage['groupByPropertyName']>;
type Constraint = ReturnType<Storage['getTargetValidatorConstraints']>[number];

/** One decorator's check: the metadata and the constraint classes that run it. */
interface Check {
  metadata: Metadata;
  constraints: Constraint[];
}

/** What class-validator runs for one property, sorted by kind once. */
interface PropertyPlan {
  name: string;
  conditions: ((object: object, value: unknown) => boolean)[];
  defined: Check[];
  checks: Check[];
  /** One schema name per @ValidateNested (class-validator validates a nested object once per decorator). */
  nested: string[];
  /** @ValidateNested over a promise: not planned (class-validator waits for it). */
  promised: boolean;
}

interface Plan {
  grouped: Grouped;
  /** The properties with rules, which whitelisting keeps (a Set: no lookup through Object.prototype's names). */
  ruled: Set<string>;
  properties: PropertyPlan[];
}

/**
 * Validation plans: what class-validator does for a DTO class, read from its metadata once per
 * class, and run without its executor on the way that matters (a valid body).
 *
 * class-validator's executor builds, for every object it validates, a ValidationError per
 * property (51 objects x 6-8 properties for a 50-line cart), filters the class's rules by kind
 * for every property, creates a ValidationArguments per check and walks the result to drop the
 * empty errors. A plan keeps the per-class part (the rules grouped by property and by kind, the
 * constraint classes that run them) and runs the same constraint functions with the same
 * arguments, in the same order, stripping non-whitelisted properties as the executor does. It
 * answers only "valid" (the object is as class-validator would leave it) or "not sure": any
 * failing check, any asynchronous answer, anything it does not model (a nested value that is not
 * an object, a promise). "Not sure" sends the body through class-validator itself, so every 422
 * is class-validator's own, unchanged.
 *
 * The options it models are the pipe's (validation.ts): whitelist, forbidUnknownValues false,
 * no groups, no `always`, no skip*Properties, no stopAtFirstError.
 */
export class ValidationPlans {
  private readonly plans = new WeakMap<Metadatas, Plan>();
  /** Plans by class and schema, while the rules' generation (validation-metadata-cache.ts) stays `generation`. */
  private byClass = new Map<unknown, Map<string | undefined, Plan>>();
  private generation: number | undefined;

  constructor(private readonly storage: Storage = getMetadataStorage()) {}

  /** True: valid, `object` whitelisted as class-validator does. False: run class-validator (the object may be partly stripped). */
  validate(object: object): boolean {
    return this.execute(object, undefined);
  }

  private planOf(target: object, schema: string | undefined): Plan {
    const generation = validationRulesGeneration();
    if (generation === undefined) return this.lookUp(target, schema);
    if (generation !== this.generation) {
      this.byClass = new Map();
      this.generation = generation;
    }
    let mine = this.byClass.get(target);
    if (!mine) this.byClass.set(target, (mine = new Map()));
    let plan = mine.get(schema);
    if (!plan) mine.set(schema, (plan = this.lookUp(target, schema)));
    return plan;
  }

  /** The class's rules as class-validator finds them, and their plan (kept per rules array). */
  private lookUp(target: object, schema: string | undefined): Plan {
    const metadatas = this.storage.getTargetValidationMetadatas(target as new () => object, schema as string, false, false, undefined);
    let plan = this.plans.get(metadatas);
    if (!plan) {
      const grouped = this.storage.groupByPropertyName(metadatas);
      plan = {
        grouped,
        ruled: new Set(Object.keys(grouped).filter((name) => grouped[name].length > 0)),
        properties: Object.keys(grouped).map((name) => this.propertyPlan(name, grouped[name])),
      };
      this.plans.set(metadatas, plan);
    }
    return plan;
  }

  private propertyPlan(name: string, all: Metadata[]): PropertyPlan {
    const check = (metadata: Metadata): Check => ({ metadata, constraints: this.storage.getTargetValidatorConstraints(metadata.constraintCls) });
    const rest = all.filter((m) => m.type !== ValidationTypes.IS_DEFINED && m.type !== ValidationTypes.WHITELIST);
    return {
      name,
      conditions: rest
        .filter((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION)
        .map((m) => m.constraints[0] as (object: object, value: unknown) => boolean),
      defined: all.filter((m) => m.type === ValidationTypes.IS_DEFINED).map(check),
      checks: rest.filter((m) => m.type === ValidationTypes.CUSTOM_VALIDATION).map(check),
      nested: rest
        .filter((m) => m.type === ValidationTypes.NESTED_VALIDATION)
        .map((m) => (typeof m.target === 'string' ? m.target : (m.target as { name: string }).name)),
      promised: rest.some((m) => m.type === ValidationTypes.PROMISE_VALIDATION),
    };
  }

  /** ValidationExecutor.execute for an object, forbidUnknownValues off, whitelist on. */
  private execute(object: object, schema: string | undefined): boolean {
    const plan = this.planOf(object.constructor, schema);
    const grouped = plan.grouped as Record<string, Metadata[] | undefined>;
    // class-validator's whitelist test (an own key named like an Object.prototype member is judged by that member, as it is there).
    for (const key of Object.keys(object))
      if (!plan.ruled.has(key) && (!grouped[key] || grouped[key].length === 0)) delete (object as Record<string, unknown>)[key];
    const targetName = object.constructor ? object.constructor.name : (undefined as unknown as string);
    for (const p of plan.properties) {
      const value = (object as Record<string, unknown>)[p.name];
      if (p.promised && value instanceof Promise) return false;
      if (!this.property(object, targetName, value, p)) return false;
    }
    return true;
  }

  /** ValidationExecutor.performValidations: conditions, then IsDefined, then the checks, then nested values. */
  private property(object: object, targetName: string, value: unknown, p: PropertyPlan): boolean {
    for (const condition of p.conditions) if (!condition(object, value)) return true;
    if ((p.defined.length || p.checks.length) && (value instanceof Set || value instanceof Map)) return false;
    if (!this.checks(object, targetName, value, p.defined) || !this.checks(object, targetName, value, p.checks)) return false;
    if (value === undefined) return true;
    for (const schema of p.nested) if (!this.nested(value, schema)) return false;
    return true;
  }

  /** The checks' constraints on the value (a Set or Map was sent to class-validator by `property`). */
  private checks(object: object, targetName: string, value: unknown, checks: Check[]): boolean {
    for (const { metadata, constraints } of checks) {
      for (const constraint of constraints) {
        const args: ValidationArguments = { targetName, property: metadata.propertyName, object, value, constraints: metadata.constraints };
        if (!metadata.each || !Array.isArray(value)) {
          if (!passed(constraint.instance.validate(value, args))) return false;
        } else {
          for (const sub of value) if (!passed(constraint.instance.validate(sub, args))) return false;
        }
      }
    }
    return true;
  }

  /** ValidationExecutor.nestedValidations for a defined value: arrays element by element, objects by their own class. */
  private nested(value: unknown, schema: string): boolean {
    if (value instanceof Set || value instanceof Map) return false;
    if (Array.isArray(value)) {
      for (const sub of value) if (sub !== undefined && !this.nested(sub, schema)) return false;
      return true;
    }
    return value instanceof Object && this.execute(value, schema);
  }
}

/** A constraint's answer that class-validator counts as passed; a promise is "not sure". */
function passed(result: unknown): boolean {
  if (result instanceof Promise || (typeof result === 'object' && result !== null && typeof (result as { then?: unknown }).then === 'function')) return false;
  return Boolean(result);
}
