// The city of a 3-digit ZIP prefix (USPS sectional center) for the large cities: enough for the
// simulated carrier to suggest a coherent emergency address (the city and state of the ZIP typed)
// instead of a city of one state with the ZIP of another. Data only; a prefix not listed has no
// known city, and the carrier then suggests nothing it cannot stand behind.
const ROWS: ReadonlyArray<readonly [string, string, string]> = [
  ['021', 'Boston', 'MA'], ['022', 'Boston', 'MA'],
  ['100', 'New York', 'NY'], ['101', 'New York', 'NY'], ['102', 'New York', 'NY'], ['112', 'Brooklyn', 'NY'],
  ['152', 'Pittsburgh', 'PA'], ['191', 'Philadelphia', 'PA'],
  ['200', 'Washington', 'DC'], ['212', 'Baltimore', 'MD'],
  ['276', 'Raleigh', 'NC'], ['282', 'Charlotte', 'NC'],
  ['303', 'Atlanta', 'GA'], ['328', 'Orlando', 'FL'], ['331', 'Miami', 'FL'], ['336', 'Tampa', 'FL'],
  ['372', 'Nashville', 'TN'], ['381', 'Memphis', 'TN'],
  ['402', 'Louisville', 'KY'], ['432', 'Columbus', 'OH'], ['441', 'Cleveland', 'OH'], ['452', 'Cincinnati', 'OH'],
  ['462', 'Indianapolis', 'IN'], ['482', 'Detroit', 'MI'], ['532', 'Milwaukee', 'WI'], ['554', 'Minneapolis', 'MN'],
  ['606', 'Chicago', 'IL'], ['631', 'St. Louis', 'MO'], ['641', 'Kansas City', 'MO'], ['681', 'Omaha', 'NE'],
  ['701', 'New Orleans', 'LA'], ['731', 'Oklahoma City', 'OK'],
  ['752', 'Dallas', 'TX'], ['770', 'Houston', 'TX'], ['782', 'San Antonio', 'TX'], ['787', 'Austin', 'TX'],
  ['802', 'Denver', 'CO'], ['841', 'Salt Lake City', 'UT'], ['850', 'Phoenix', 'AZ'], ['857', 'Tucson', 'AZ'],
  ['871', 'Albuquerque', 'NM'], ['891', 'Las Vegas', 'NV'],
  ['900', 'Los Angeles', 'CA'], ['921', 'San Diego', 'CA'], ['941', 'San Francisco', 'CA'], ['951', 'San Jose', 'CA'],
  ['958', 'Sacramento', 'CA'], ['968', 'Honolulu', 'HI'], ['972', 'Portland', 'OR'], ['981', 'Seattle', 'WA'],
  ['995', 'Anchorage', 'AK'],
];

export interface ZipPlace {
  city: string;
  state: string;
}

export const ZIP_PREFIX_CITIES: ReadonlyMap<string, ZipPlace> = new Map(ROWS.map(([prefix, city, state]) => [prefix, Object.freeze({ city, state })]));

/** The city and state of a ZIP code's sectional center, when this table knows it. */
export const placeForZip = (zip: string): ZipPlace | undefined => ZIP_PREFIX_CITIES.get(zip.slice(0, 3));
