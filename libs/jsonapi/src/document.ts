/** A JSON:API resource object as the API returns it. */
export interface ResourceObject<A = Record<string, unknown>> {
  id: string;
  type: string;
  attributes: A;
  relationships?: Record<string, { data: { id: string; type: string } | { id: string; type: string }[] | null }>;
}

export interface Links {
  self: string;
  first: string;
  prev: string | null;
  next: string | null;
  last: string | null;
}

/**
 * A collection's meta: numbers and totals on offset pages (null on cursor pages),
 * `next_cursor` whenever there is a next page, `total_count_capped` when `total_count` is
 * a lower bound (a list longer than the count's bound).
 */
export interface Meta {
  current_page?: number | null;
  next_page?: number | null;
  prev_page?: number | null;
  total_count?: number | null;
  total_pages?: number | null;
  next_cursor?: string;
  total_count_capped?: true;
}

export interface SingleDocument {
  data: ResourceObject;
  included?: ResourceObject[];
}

export interface CollectionDocument {
  data: ResourceObject[];
  included?: ResourceObject[];
  links: Links;
  meta: Meta;
}

export function singleDocument(data: ResourceObject, included?: ResourceObject[]): SingleDocument {
  return included && included.length ? { data, included } : { data };
}
