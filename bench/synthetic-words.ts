// Vocabulary of the synthetic council. Titles are assembled from these lists with a skewed
// pick (early entries far more common than late ones), so full-text search meets the mix of
// very common and rare words a real council's record has.

export const givenNames = [
  'Maria', 'James', 'Patricia', 'Robert', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth', 'William',
  'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Carlos', 'Karen', 'Daniel',
  'Nancy', 'Matthew', 'Lisa', 'Anthony', 'Betty', 'Mark', 'Sandra', 'Andre', 'Ashley', 'Steven',
  'Kimberly', 'Paul', 'Donna', 'Andrew', 'Emily', 'Joshua', 'Michelle', 'Kenneth', 'Carol', 'Kevin',
  'Amanda', 'Brian', 'Melissa', 'George', 'Deborah', 'Timothy', 'Stephanie', 'Ronald', 'Rebecca', 'Jason',
  'Sharon', 'Edward', 'Laura', 'Jeffrey', 'Cynthia', 'Ryan', 'Dorothy', 'Jacob', 'Amy', 'Gary',
];

export const familyNames = [
  'Garcia', 'Johnson', 'Nguyen', 'Kowalski', 'Washington', 'Hernandez', "O'Brien", 'Patel', 'Lopez', 'Williams',
  'Brown', 'Jones', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Wilson', 'Anderson', 'Taylor', 'Thomas',
  'Moore', 'Jackson', 'Martin', 'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark',
  'Ramirez', 'Lewis', 'Robinson', 'Walker', 'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres',
  'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell',
  'Carter', 'Roberts', 'Nowak', 'Wojcik', 'Murphy', 'Sullivan', 'Kim', 'Chen', 'Okafor', 'Ortiz',
];

export const committees = [
  'Committee on Finance', 'Committee on the Budget and Government Operations', 'Committee on Zoning, Landmarks and Building Standards',
  'Committee on License and Consumer Protection', 'Committee on Pedestrian and Traffic Safety', 'Committee on Transportation and Public Way',
  'Committee on Housing and Real Estate', 'Committee on Public Safety', 'Committee on Health and Human Relations',
  'Committee on Education and Child Development', 'Committee on Environmental Protection and Energy', 'Committee on Workforce Development',
  'Committee on Economic, Capital and Technology Development', 'Committee on Contracting Oversight and Equity', 'Committee on Ethics and Government Oversight',
  'Committee on Committees and Rules', 'Committee on Aviation', 'Committee on Immigrant and Refugee Rights',
  'Committee on Police and Fire', 'Committee on Special Events, Cultural Affairs and Recreation', 'Committee on Human Relations',
  'Committee on Race and Equity', 'Committee on Parks and Recreation', 'Committee on Water and Sewers',
  'Committee on Streets and Sanitation', 'Committee on Small Business Development', 'Committee on Arts and Culture',
  'Committee on Youth and Families', 'Committee on Senior Services', 'Committee on Disability Rights',
  'Committee on Veterans Affairs', 'Committee on Animal Welfare', 'Committee on Public Libraries',
  'Committee on Tourism and Hospitality', 'Committee on Community Development', 'Committee on Infrastructure Resilience',
  'Committee on Revenue and Tax Policy', 'Committee on Data and Technology', 'Committee on Lakefront Protection',
];

// Subjects of hearings, amendments and reports; the skewed pick makes the first ones common.
export const topics = [
  'public safety', 'affordable housing', 'property taxes', 'street repairs', 'police accountability', 'youth programs',
  'small business relief', 'vacant lots', 'tax increment financing', 'water rates', 'snow removal', 'rodent control',
  'bike lanes', 'pedestrian safety', 'mental health services', 'lead service line replacement', 'short-term rentals',
  'noise complaints', 'tree canopy', 'minimum wage', 'fair workweek', 'gun violence prevention', 'food deserts',
  'climate resilience', 'cannabis dispensaries', 'public transit', 'library hours', 'park district budget', 'sidewalk cafes',
  'landlord registration', 'towing fees', 'ride-hailing congestion', 'school closures', 'homeless shelters', 'flood mitigation',
  'speed cameras', 'red light cameras', 'dog parks', 'community gardens', 'historic landmarks', 'lakefront erosion',
  'airport concessions', 'casino revenue', 'pension funding', 'bond refinancing', 'ambulance response times', 'graffiti removal',
  'composting', 'electric vehicle charging', 'broadband access', 'street vendors', 'sports stadium financing', 'opioid settlement funds',
  'immigrant protections', 'language access', 'digital equity', 'heat emergencies', 'alley lighting', 'basement flooding',
];

export const streets = [
  'Western Avenue', 'Ashland Avenue', 'Halsted Street', 'Cicero Avenue', 'Pulaski Road', 'Clark Street', 'Milwaukee Avenue',
  'Damen Avenue', 'Kedzie Avenue', 'Roosevelt Road', 'Madison Street', 'Chicago Avenue', 'North Avenue', 'Belmont Avenue',
  'Fullerton Avenue', 'Lawrence Avenue', 'Irving Park Road', 'Division Street', 'Cermak Road', 'Archer Avenue', 'Garfield Boulevard',
  '63rd Street', '79th Street', '87th Street', '95th Street', '103rd Street', '111th Street', 'Stony Island Avenue', 'Cottage Grove Avenue',
  'King Drive', 'State Street', 'Wabash Avenue', 'Michigan Avenue', 'Lake Shore Drive', 'Sheridan Road', 'Broadway', 'Lincoln Avenue',
  'Elston Avenue', 'Harlem Avenue', 'Austin Boulevard', 'Central Avenue', 'Narragansett Avenue', 'Devon Avenue', 'Touhy Avenue',
  'Howard Street', 'Foster Avenue', 'Montrose Avenue', 'Addison Street', 'Diversey Parkway', 'Armitage Avenue', 'Grand Avenue',
  'Ogden Avenue', 'Blue Island Avenue', 'Pershing Road', '47th Street', '55th Street', 'Marquette Road', '71st Street', 'Vincennes Avenue',
];

export const directions = ['N.', 'S.', 'W.', 'E.'];

export const businessKinds = [
  'Hardware', 'Tavern', 'Bakery', 'Dental Group', 'Auto Repair', 'Pharmacy', 'Taqueria', 'Barber Shop', 'Grocery', 'Laundromat',
  'Coffee Roasters', 'Fitness Studio', 'Pizzeria', 'Bookstore', 'Florist', 'Car Wash', 'Day Care', 'Hair Salon', 'Liquor Store',
  'Medical Clinic', 'Brewing Company', 'Cleaners', 'Music Venue', 'Furniture', 'Bank', 'Currency Exchange', 'Gas Station', 'Hotel',
];

export const trafficThings = [
  'speed humps', 'stop signs', 'a traffic signal', 'no parking signs', 'loading zone signs', 'a cul-de-sac', 'diagonal parking',
  'a pedestrian refuge island', 'one-way traffic restriction', 'weight limitation signs', 'a bus stop relocation', 'curb extensions',
];

export const boards = [
  'Zoning Board of Appeals', 'Chicago Plan Commission', 'Commission on Chicago Landmarks', 'Board of Ethics', 'Community Development Commission',
  'Chicago Police Board', 'Chicago Housing Authority Board', 'Board of Health', 'Special Service Area Commission', 'Library Board',
  'Commission on Human Relations', 'Advisory Council on Veterans', 'Chicago Transit Board', 'Board of Education',
];

export const agencies = [
  'Department of Transportation', 'Department of Finance', 'Department of Housing', 'Chicago Police Department', 'Department of Planning and Development',
  'Department of Water Management', 'Department of Streets and Sanitation', 'Office of Inspector General', 'Department of Public Health',
  'Chicago Park District', 'Chicago Transit Authority', 'Cook County', 'State of Illinois', 'Chicago Public Schools', 'Department of Aviation',
];

export const occasions = [
  'retirement', 'service to the community', 'one hundredth birthday', 'championship season', 'fiftieth anniversary', 'graduation',
  'heroic actions', 'years of public service', 'grand opening', 'promotion',
];

export const locations = [
  'Council Chambers, City Hall, 121 N. LaSalle St.', 'Room 201A, City Hall', 'Room 1103, City Hall', 'Virtual meeting', 'Rooms 201A and 201B, City Hall',
];
