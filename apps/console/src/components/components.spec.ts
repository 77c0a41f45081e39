import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { DataTable, InlineEditRow, ListState } from './list';
import { FormActions, RowAction } from './ui';
import type { Loaded } from './use-load';

const loaded = <T>(data: T | undefined, error: string | null = null): Loaded<T> => ({
  data,
  error,
  errorCode: null,
  loading: data === undefined && !error,
  reload: () => undefined,
});
const row = (name: string) => h('tr', { key: name }, h('td', null, name));

describe('DataTable', () => {
  it('renders the markup the pages wrote by hand: a hidden column is left out, the empty row spans every column', () => {
    expect(
      renderToStaticMarkup(
        h(DataTable<string>, { rows: [], columns: ['Name', false], empty: 'No thing yet.', children: row }),
      ),
    ).toBe(
      '<div class="table-wrap"><table class="data"><thead><tr><th scope="col">Name</th></tr></thead><tbody><tr><td colSpan="2" class="empty">No thing yet.</td></tr></tbody></table></div>',
    );
  });

  it('renders one row each, a label, and no empty row without `empty`', () => {
    expect(
      renderToStaticMarkup(
        h(DataTable<string>, {
          rows: ['a', 'b'],
          columns: ['Name', 'Actions'],
          label: 'Things',
          empty: 'none',
          children: row,
        }),
      ),
    ).toBe(
      '<div class="table-wrap"><table class="data" aria-label="Things"><thead><tr><th scope="col">Name</th><th scope="col">Actions</th></tr></thead><tbody><tr><td>a</td></tr><tr><td>b</td></tr></tbody></table></div>',
    );
    expect(renderToStaticMarkup(h(DataTable<string>, { rows: [], columns: ['Name'], children: row }))).toBe(
      '<div class="table-wrap"><table class="data"><thead><tr><th scope="col">Name</th></tr></thead><tbody></tbody></table></div>',
    );
  });
});

describe('ListState', () => {
  const list = (state: Loaded<string[]>) =>
    renderToStaticMarkup(h(ListState<string[]>, { loaded: state, what: 'things', children: (data) => data.join(',') }));

  it('says it is loading, shows nothing on an error (the page alerts it), then the data', () => {
    expect(list(loaded<string[]>(undefined))).toBe('<p class="muted" role="status">Loading things…</p>');
    expect(list(loaded<string[]>(undefined, 'down'))).toBe('');
    expect(list(loaded(['a', 'b'], 'a reload failed'))).toBe('a,b');
  });
});

describe('FormActions', () => {
  it('is the submit button and Cancel in a row', () => {
    expect(
      renderToStaticMarkup(h(FormActions, { submitLabel: 'Create field', pending: true, onCancel: () => undefined })),
    ).toBe(
      '<div class="row"><button type="submit" class="primary" disabled="">Create field</button><button type="button">Cancel</button></div>',
    );
  });
});

describe('RowAction', () => {
  it('is a button named with its row, danger for a destructive one', () => {
    expect(
      renderToStaticMarkup(h(RowAction, { label: 'Delete', name: 'gpa', onClick: () => undefined, danger: true })),
    ).toBe('<button type="button" class="danger" aria-label="Delete gpa">Delete</button>');
    expect(
      renderToStaticMarkup(h(RowAction, { label: 'Edit', name: 'gpa', onClick: () => undefined, disabled: true })),
    ).toBe('<button type="button" disabled="" aria-label="Edit gpa">Edit</button>');
  });
});

describe('InlineEditRow', () => {
  it('is a row holding the edit form, its fields, Save and Cancel', () => {
    expect(
      renderToStaticMarkup(
        h(InlineEditRow, {
          colSpan: 6,
          label: 'Edit a',
          submitLabel: 'Save',
          onSubmit: () => undefined,
          onCancel: () => undefined,
          children: h('strong', null, 'a'),
        }),
      ),
    ).toBe(
      '<tr><td colSpan="6"><form class="inline-form" aria-label="Edit a"><strong>a</strong><button type="submit" class="primary">Save</button><button type="button">Cancel</button></form></td></tr>',
    );
  });
});
