import type { ReactNode } from 'react';
import Form from '@rjsf/core';
import type { ObjectFieldTemplateProps, RJSFSchema, UiSchema, WidgetProps } from '@rjsf/utils';
import { fieldMatches, type FieldInfo } from '../model/configForm';
import { configFormValidator } from '../model/configFormValidator';
import './ConfigSchemaForm.css';

export interface ConfigSchemaFormProps {
  /** prefix of the generated element ids (one per form on the page) */
  idPrefix: string;
  /** what the search matches besides the fields (the plugin id, "compaction") */
  section: string;
  schema: Record<string, unknown>;
  uiSchema: Record<string, unknown>;
  fields: readonly FieldInfo[];
  formData: Record<string, unknown>;
  /** validation errors from the Node side (ajv), as rjsf's error schema */
  errorSchema: Record<string, unknown>;
  /** top-level keys whose value differs from what is saved */
  changedKeys: ReadonlySet<string>;
  search: string;
  disabled?: boolean;
  onChange(data: Record<string, unknown>): void;
  /** back to the default: the key is removed from the config */
  onReset(key: string): void;
}

interface FormContext {
  fields: readonly FieldInfo[];
  section: string;
  search: string;
  changedKeys: ReadonlySet<string>;
  formData: Record<string, unknown>;
  onReset(key: string): void;
}

/** One row per top-level setting: the field, a "changed" marker and Reset; advanced settings folded. */
function RootObjectTemplate(props: ObjectFieldTemplateProps) {
  const context = props.registry.formContext as FormContext;
  if (props.fieldPathId.path.length > 0) {
    return <div className="config-form__object">{props.properties.map((p) => !p.hidden && p.content)}</div>;
  }
  const info = (name: string) => context.fields.find((f) => f.key === name);
  const visible = props.properties.filter((p) => {
    const field = info(p.name);
    return !p.hidden && (!field || fieldMatches(context.search, field, context.section));
  });
  const row = (name: string, content: ReactNode) => {
    const changed = context.changedKeys.has(name);
    const set = context.formData[name] !== undefined;
    return (
      <div key={name} className={`config-form__row${changed ? ' config-form__row--changed' : ''}`} data-field={name}>
        <div className="config-form__field">{content}</div>
        <div className="config-form__row-actions">
          {changed && (
            <span className="config-form__changed" title="changed, not saved yet">
              changed
            </span>
          )}
          {set && (
            <button
              type="button"
              className="button button--link"
              onClick={() => context.onReset(name)}
              aria-label={`Reset ${info(name)?.label ?? name} to its default`}
            >
              Reset
            </button>
          )}
        </div>
      </div>
    );
  };
  const basic = visible.filter((p) => !info(p.name)?.advanced);
  const advanced = visible.filter((p) => info(p.name)?.advanced);
  return (
    <div className="config-form__object">
      {basic.map((p) => row(p.name, p.content))}
      {advanced.length > 0 && (
        <details
          className="config-form__advanced"
          open={context.search.trim() !== '' || advanced.some((p) => context.changedKeys.has(p.name))}
        >
          <summary>Advanced settings ({advanced.length})</summary>
          {advanced.map((p) => row(p.name, p.content))}
        </details>
      )}
      {visible.length === 0 && <p className="muted config-form__none">No setting matches the search.</p>}
    </div>
  );
}

/** A boolean that may be left unset: "default: …", true, false (rjsf's own checkbox cannot say "unset"). */
function TriStateWidget({ id, value, disabled, readonly, onChange, options }: WidgetProps) {
  return (
    <select
      id={id}
      className="form-control"
      value={value === true ? 'true' : value === false ? 'false' : ''}
      disabled={disabled || readonly}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value === 'true')}
    >
      <option value="">{typeof options.defaultLabel === 'string' ? options.defaultLabel : 'default'}</option>
      <option value="true">true</option>
      <option value="false">false</option>
    </select>
  );
}

const WIDGETS = { triState: TriStateWidget };

/** A JSON Schema form (rjsf) fed by props: values in, changes out; validation errors come from the bridge. */
export function ConfigSchemaForm(props: ConfigSchemaFormProps) {
  const context: FormContext = {
    fields: props.fields,
    section: props.section,
    search: props.search,
    changedKeys: props.changedKeys,
    formData: props.formData,
    onReset: props.onReset,
  };
  return (
    <div className="config-form">
      <Form
        schema={props.schema as RJSFSchema}
        uiSchema={props.uiSchema as UiSchema}
        formData={props.formData}
        validator={configFormValidator}
        idPrefix={props.idPrefix}
        formContext={context}
        extraErrors={props.errorSchema as never}
        showErrorList={false}
        noHtml5Validate
        disabled={props.disabled}
        templates={{ ObjectFieldTemplate: RootObjectTemplate }}
        widgets={WIDGETS}
        experimental_defaultFormStateBehavior={{
          emptyObjectFields: 'skipDefaults',
          arrayMinItems: { populate: 'never' },
        }}
        onChange={(event) => props.onChange((event.formData ?? {}) as Record<string, unknown>)}
        tagName="div"
      />
    </div>
  );
}
